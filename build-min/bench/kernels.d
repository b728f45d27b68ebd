build-min/bench/kernels.o: bench/kernels.c bench/k-loops.h \
 bench/kernels.h bench/../core/error.h
bench/k-loops.h:
bench/kernels.h:
bench/../core/error.h:
