build-min/collectors/pmu.o: collectors/pmu.c collectors/pmu.h \
 collectors/../core/sysfs.h collectors/../core/topo.h \
 collectors/../core/bitmap.h collectors/../core/sysfs.h \
 collectors/../core/error.h collectors/../core/parse.h
collectors/pmu.h:
collectors/../core/sysfs.h:
collectors/../core/topo.h:
collectors/../core/bitmap.h:
collectors/../core/sysfs.h:
collectors/../core/error.h:
collectors/../core/parse.h:
