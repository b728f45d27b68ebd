build-min/core/wi.o: core/wi.c core/wi.h core/sysfs.h core/topo.h \
 core/bitmap.h core/weights.h core/error.h
core/wi.h:
core/sysfs.h:
core/topo.h:
core/bitmap.h:
core/weights.h:
core/error.h:
