build-min/collectors/sampler.o: collectors/sampler.c collectors/sampler.h \
 collectors/collector.h collectors/../core/sysfs.h \
 collectors/../core/topo.h collectors/../core/bitmap.h \
 collectors/../core/sysfs.h collectors/../core/weights.h \
 collectors/../core/error.h
collectors/sampler.h:
collectors/collector.h:
collectors/../core/sysfs.h:
collectors/../core/topo.h:
collectors/../core/bitmap.h:
collectors/../core/sysfs.h:
collectors/../core/weights.h:
collectors/../core/error.h:
