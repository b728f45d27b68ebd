build-min/core/fixture-kernel.o: core/fixture-kernel.c \
 core/fixture-kernel.h core/sysfs.h core/error.h core/parse.h core/topo.h \
 core/bitmap.h core/weights.h
core/fixture-kernel.h:
core/sysfs.h:
core/error.h:
core/parse.h:
core/topo.h:
core/bitmap.h:
core/weights.h:
