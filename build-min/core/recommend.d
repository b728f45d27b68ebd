build-min/core/recommend.o: core/recommend.c core/recommend.h core/topo.h \
 core/bitmap.h core/sysfs.h core/weights.h core/error.h
core/recommend.h:
core/topo.h:
core/bitmap.h:
core/sysfs.h:
core/weights.h:
core/error.h:
