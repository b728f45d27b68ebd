build-min/cli/cmd-bench.o: cli/cmd-bench.c cli/cli.h cli/../core/error.h \
 cli/../core/sysfs.h cli/../bench/run.h cli/../bench/../core/topo.h \
 cli/../bench/../core/bitmap.h cli/../bench/../core/sysfs.h \
 cli/../bench/kernels.h cli/../bench/place.h \
 cli/../bench/../core/interleave.h cli/../bench/../core/topo.h \
 cli/../bench/../core/weights.h cli/../core/parse.h cli/../core/wi.h \
 cli/../core/sysfs.h cli/../core/topo.h cli/../core/weights.h \
 cli/../collectors/collect.h cli/../collectors/sampler.h \
 cli/../collectors/collector.h cli/../collectors/../core/sysfs.h \
 cli/../collectors/../core/topo.h cli/../collectors/../core/weights.h \
 cli/../db/db.h cli/../db/../core/topo.h cli/../db/../core/weights.h
cli/cli.h:
cli/../core/error.h:
cli/../core/sysfs.h:
cli/../bench/run.h:
cli/../bench/../core/topo.h:
cli/../bench/../core/bitmap.h:
cli/../bench/../core/sysfs.h:
cli/../bench/kernels.h:
cli/../bench/place.h:
cli/../bench/../core/interleave.h:
cli/../bench/../core/topo.h:
cli/../bench/../core/weights.h:
cli/../core/parse.h:
cli/../core/wi.h:
cli/../core/sysfs.h:
cli/../core/topo.h:
cli/../core/weights.h:
cli/../collectors/collect.h:
cli/../collectors/sampler.h:
cli/../collectors/collector.h:
cli/../collectors/../core/sysfs.h:
cli/../collectors/../core/topo.h:
cli/../collectors/../core/weights.h:
cli/../db/db.h:
cli/../db/../core/topo.h:
cli/../db/../core/weights.h:
