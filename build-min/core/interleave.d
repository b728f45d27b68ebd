build-min/core/interleave.o: core/interleave.c core/interleave.h \
 core/bitmap.h core/topo.h core/sysfs.h core/weights.h core/error.h
core/interleave.h:
core/bitmap.h:
core/topo.h:
core/sysfs.h:
core/weights.h:
core/error.h:
