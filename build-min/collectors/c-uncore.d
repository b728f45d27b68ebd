build-min/collectors/c-uncore.o: collectors/c-uncore.c \
 collectors/collector.h collectors/../core/sysfs.h \
 collectors/../core/topo.h collectors/../core/bitmap.h \
 collectors/../core/sysfs.h collectors/../core/weights.h \
 collectors/../core/error.h collectors/../core/parse.h collectors/pmu.h
collectors/collector.h:
collectors/../core/sysfs.h:
collectors/../core/topo.h:
collectors/../core/bitmap.h:
collectors/../core/sysfs.h:
collectors/../core/weights.h:
collectors/../core/error.h:
collectors/../core/parse.h:
collectors/pmu.h:
