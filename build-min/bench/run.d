build-min/bench/run.o: bench/run.c bench/harness.h bench/run.h \
 bench/../core/topo.h bench/../core/bitmap.h bench/../core/sysfs.h \
 bench/kernels.h bench/place.h bench/../core/interleave.h \
 bench/../core/topo.h bench/../core/weights.h bench/../core/error.h \
 bench/../core/parse.h
bench/harness.h:
bench/run.h:
bench/../core/topo.h:
bench/../core/bitmap.h:
bench/../core/sysfs.h:
bench/kernels.h:
bench/place.h:
bench/../core/interleave.h:
bench/../core/topo.h:
bench/../core/weights.h:
bench/../core/error.h:
bench/../core/parse.h:
