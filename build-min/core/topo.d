build-min/core/topo.o: core/topo.c core/topo.h core/bitmap.h core/sysfs.h \
 core/error.h core/parse.h
core/topo.h:
core/bitmap.h:
core/sysfs.h:
core/error.h:
core/parse.h:
