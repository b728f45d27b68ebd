build-min/bench/k-stream-avx512.o: bench/k-stream.c bench/k-loops.h \
 bench/kernels.h
bench/k-loops.h:
bench/kernels.h:
