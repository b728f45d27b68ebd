build-min/core/weights.o: core/weights.c core/weights.h core/bitmap.h \
 core/error.h core/parse.h core/topo.h core/sysfs.h
core/weights.h:
core/bitmap.h:
core/error.h:
core/parse.h:
core/topo.h:
core/sysfs.h:
