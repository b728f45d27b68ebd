build-min/core/sysfs.o: core/sysfs.c core/sysfs.h core/error.h \
 core/fixture-kernel.h core/parse.h
core/sysfs.h:
core/error.h:
core/fixture-kernel.h:
core/parse.h:
