build-min/bench/place.o: bench/place.c bench/place.h \
 bench/../core/interleave.h bench/../core/bitmap.h bench/../core/topo.h \
 bench/../core/sysfs.h bench/../core/weights.h bench/../core/error.h \
 bench/../core/mpol.h
bench/place.h:
bench/../core/interleave.h:
bench/../core/bitmap.h:
bench/../core/topo.h:
bench/../core/sysfs.h:
bench/../core/weights.h:
bench/../core/error.h:
bench/../core/mpol.h:
