build-min/collectors/collect.o: collectors/collect.c collectors/collect.h \
 collectors/sampler.h collectors/collector.h collectors/../core/sysfs.h \
 collectors/../core/topo.h collectors/../core/bitmap.h \
 collectors/../core/sysfs.h collectors/../core/weights.h \
 collectors/../core/error.h
collectors/collect.h:
collectors/sampler.h:
collectors/collector.h:
collectors/../core/sysfs.h:
collectors/../core/topo.h:
collectors/../core/bitmap.h:
collectors/../core/sysfs.h:
collectors/../core/weights.h:
collectors/../core/error.h:
