build-min/core/wi-rfc.o: core/wi-rfc.c core/wi.h core/sysfs.h core/topo.h \
 core/bitmap.h core/weights.h core/error.h core/parse.h
core/wi.h:
core/sysfs.h:
core/topo.h:
core/bitmap.h:
core/weights.h:
core/error.h:
core/parse.h:
