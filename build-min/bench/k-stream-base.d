build-min/bench/k-stream-base.o: bench/k-stream.c bench/k-loops.h \
 bench/kernels.h
bench/k-loops.h:
bench/kernels.h:
