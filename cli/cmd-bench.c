// SPDX-License-Identifier: GPL-3.0-or-later
/* tiertune bench: run a kernel under a placement and report bandwidth and
 * where the pages went. The options and their checks, and the order and
 * words of what is printed; running, collecting and recording are
 * measure/trial.c's, the figures' text and JSON view/bench-text.c's and
 * view/bench-json.c's. */
#include "cli.h"
#include "progress.h"

#include "../bench/run.h"
#include "../core/error.h"
#include "../core/parse.h"
#include "../core/wi.h"
#include "../db/db.h"
#include "../measure/trial.h"
#include "../view/bench-json.h"
#include "../view/bench-text.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The columns text is wrapped to: 80, or a narrower terminal's (the
 * terminal broke words at 60 columns). Files and pipes get 80. */
static int text_columns(void)
{
	int w = isatty(STDOUT_FILENO) ? cli_term_width(STDOUT_FILENO) : 80;

	return w < 80 ? w : 80;
}

/* Text from column indent on, wrapped to fit 80 columns. */
static void print_wrapped(int indent, const char *text)
{
	int cols = text_columns(), col = indent, width = cols - indent;

	while (*text) {
		int n = (int)strcspn(text, " ");

		if (col > indent && col + 1 + n > cols) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			putchar(' ');
			col++;
		}
		printf("%.*s", n < width ? n : width, text);
		col += n;
		text += n;
		text += strspn(text, " ");
	}
	putchar('\n');
}

/* A line of text that may outgrow 80 columns (paths, lists, reasons):
 * wrapped there, the rest indented by two. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	int col = 0, cols = text_columns();

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (const char *t = buf; *t;) {
		int n = (int)strcspn(t, " ");

		if (col > 2 && col + 1 + n > cols) {
			printf("\n  ");
			col = 2;
		} else if (col > 0) {
			putchar(' ');
			col++;
		}
		printf("%.*s", n, t);
		col += n;
		t += n;
		t += strspn(t, " ");
	}
	putchar('\n');
}

static int list_kernels(const struct tt_cli *cli)
{
	if (cli->json) {
		json_t *a = json_array();

		for (const struct tt_kernel *const *k = tt_kernels; *k; k++)
			json_array_append_new(
				a, json_pack("{s:s,s:s,s:s,s:s?,s:s?,s:i,s:i,s:i}", "name",
					     (*k)->name, "summary", (*k)->summary, "kernel_kind",
					     (*k)->kind->name, "counting", (*k)->counting, "mlc",
					     (*k)->mlc, "arrays", (*k)->arrays, "read_bytes",
					     (*k)->read_bytes, "write_bytes", (*k)->write_bytes));
		return cli_print_json(json_pack("{s:o}", "kernels", a));
	}
	printf("%-15s %9s %-7s %s\n", "kernel", "bytes r+w", "counted",
	       "what (and MLC's equivalent)");
	for (const struct tt_kernel *const *k = tt_kernels; *k; k++) {
		char bytes[32] = "-";

		if ((*k)->kind->bandwidth)
			snprintf(bytes, sizeof(bytes), "%u+%u", (*k)->read_bytes,
				 (*k)->write_bytes);
		printf("%-15s %9s %-7s ", (*k)->name, bytes, (*k)->counting ? (*k)->counting : "-");
		print_wrapped(34, (*k)->summary);
		if ((*k)->mlc) {
			char mlc[128];

			snprintf(mlc, sizeof(mlc), "MLC %s", (*k)->mlc);
			printf("%34s", "");
			print_wrapped(34, mlc);
		}
	}
	printf("\nSTREAM counts the loads and stores in the code; MLC counts memory traffic,\n"
	       "where an ordinary store also reads its line (RFO) and a non-temporal store\n"
	       "does not.\n");
	return 0;
}

/* Where bench's text goes (view/bench-text.h): stdout, wrapped here. */
static const struct tt_bench_out *text_out(void)
{
	static struct tt_bench_out out;

	out = (struct tt_bench_out){
		.f = stdout, .cols = text_columns(), .say = say, .wrap = print_wrapped
	};
	return &out;
}

/* A row per figure of the kind, and a curve's traffic and points. */
static void print_figures(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	tt_bench_passes_text(text_out(), o, r);
	if (!o->kernel->kind->curve)
		return;
	printf("\ntraffic: %s on %d thread%s; delay in spin iterations per cache line\n",
	       (o->traffic ? o->traffic : &tt_k_reads)->name, r->threads - 1,
	       r->threads == 2 ? "" : "s");
	/* MLC loads every other core of the machine; one core's loads, with
	 * its few outstanding misses, reach a share of memory's bandwidth
	 * (6.4 GB/s here at delay 0, against 22 GB/s for reads on 2 threads),
	 * so such a curve never shows the knee near saturation (issue 44). */
	if (r->threads == 2)
		say("one traffic thread cannot bring memory near saturation: the curve ends "
		    "at one core's load, not the machine's (--threads, where the node has "
		    "more CPUs)");
	tt_bench_curve_text(text_out(), r);
}

/* The header: what runs where, on what sizes. Printed once the buffers are
 * mapped and fit, before they are touched, so that a person sees it while
 * they wait. */
static void print_header(const struct tt_cli *cli, const struct tt_bench_opts *o,
			 const struct tt_bench_result *r)
{
	char nodes[256], cpus[512];
	uint64_t bits[TT_MAX_CPUS / 64] = { 0 };

	tt_bit_format_list(o->place.nodes.bits, TT_MAX_NODES, nodes, sizeof(nodes));
	for (int i = 0; i < r->threads; i++)
		tt_bit_set(bits, (unsigned int)r->cpus[i]);
	tt_bit_format_list(bits, TT_MAX_CPUS, cpus, sizeof(cpus));
	if (!cli->sfs.live)
		printf("simulated: topology from '%s', not this machine; buffers and threads "
		       "are this machine's\n",
		       cli->sysfs_root);
	char sizes[320];

	tt_bench_sizes_text(o, r, sizes, sizeof(sizes));
	say("kernel %s, %s placement on nodes %s, source node %d, %d thread%s on CPU%s %s",
	    o->kernel->name, tt_place_mode_names[o->place.mode], nodes, o->source_node, r->threads,
	    r->threads == 1 ? "" : "s", r->threads == 1 ? "" : "s", cpus);
	say("%s", sizes);
	tt_bench_llc_text(text_out(), &r->llc);
	fflush(stdout);
}
/* What the run checked of its result (the JSON's "validated"), then the
 * judgement beside it, in the summary's words (the JSON's "judged"):
 * "validation: passed" under a run the lines above disown (cache-resident,
 * below the rule, too short, descheduled, unstable) read as the tool
 * standing behind figures it does not (issue 34). Where the pages went is
 * the placement's line, above. */
static void print_verdict(const struct tt_bench_opts *o, const struct tt_bench_result *r)
{
	const struct tt_kernel *k = o->kernel, *traffic = o->traffic ? o->traffic : &tt_k_reads;
	unsigned int fails = tt_bench_judged(r);
	char list[160];

	if (k->kind->curve)
		printf("checked: the chain, one cycle through every line%s",
		       traffic->out_array >= 0 ? ", and the traffic's output, every element" : "");
	else if (!k->kind->bandwidth)
		printf("checked: the chain, one cycle through every line");
	else if (k->out_array >= 0)
		printf("checked: the output, every element as the kernel computes it");
	else
		printf("checked: the sum of all it read, as the kernel computes it");
	printf("%s\n", r->validated ? "" : ": WRONG");
	tt_judged_text(fails, list, sizeof(list));
	if (fails)
		say("judged: %s (above): not figures of memory to rely on", list);
	else if (k->kind->curve)
		printf("judged: valid; the curve is monotone and at or above the idle latency\n");
	else
		printf("judged: valid\n");
}

/* The summary after several kernels, as STREAM ends (view/bench-text.h);
 * with --json, each kernel's document, printed together. */
struct summary {
	json_t *docs;
	struct tt_stream stream;
};

static int report(const struct tt_cli *cli, const struct tt_bench_opts *o,
		  const struct tt_trial_result *res, const struct tt_topo *t, struct summary *sum)
{
	const struct tt_bench_result *r = &res->bench;
	struct tt_bench_trust trust;

	if (sum)
		tt_stream_add(&sum->stream, o, res);
	if (cli->json) {
		json_t *j = tt_bench_json(o, res, t, !cli->sfs.live);

		if (!sum)
			return cli_print_json(j);
		json_t *doc = json_pack("{s:i}", "schema_version", TT_JSON_SCHEMA_VERSION);

		json_object_update_new(doc, j);
		json_array_append_new(sum->docs, doc);
		return 0;
	}
	tt_bench_trust_of(r, &trust);
	print_figures(o, r);
	tt_bench_pages_text(text_out(), "pages", o->place.thp, o->place.huge_shift, &r->pages);
	tt_bench_trust_text(text_out(), &trust, r->array_bytes, r->touched_bytes,
			    o->kernel->kind->buffers, r->best_s);
	tt_bench_placement_text(text_out(), r);
	print_verdict(o, r);
	if (res->run_id)
		printf("recorded as run %jd\n", (intmax_t)res->run_id);
	if (res->collected)
		tt_bench_collect_text(text_out(), &res->sum, r);
	return 0;
}

static int report_matrix(const struct tt_cli *cli, const struct tt_bench_opts *o,
			 const struct tt_trial_result *res)
{
	const struct tt_matrix *m = &res->matrix;
	struct tt_bench_trust trust;
	char why[96];

	if (cli->json)
		return cli_print_json(tt_matrix_json(o, res));
	tt_matrix_trust(m, &trust, why, sizeof(why));
	tt_matrix_text(text_out(), o, m);
	tt_bench_pages_text(text_out(), "bandwidth pages", o->place.thp, o->place.huge_shift,
			    &m->bw_pages);
	tt_bench_pages_text(text_out(), "latency pages", o->matrix_lat_thp,
			    o->matrix_lat_huge_shift, &m->lat_pages);
	tt_bench_trust_text(text_out(), &trust, m->array_bytes, 0, "arrays", 0);
	if (res->run_id)
		printf("recorded as run %jd\n", (intmax_t)res->run_id);
	return 0;
}

struct bench_args {
	const char *kernel, *nodes, *weights, *traffic, *collect, *page_size;
	int placement; /* enum tt_place_mode; -1: not given */
	int64_t source;
	uint64_t threads, size, repeat, verify_max, point_ms;
	uint64_t delays[TT_MAX_DELAYS];
	int ndelays;
	bool list, thp, matrix, record;
};

static int parse_delays(const char *arg, struct bench_args *a)
{
	char buf[1024], *save = NULL;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return cli_usage("--delays '%.40s...' is too long", arg);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (a->ndelays == TT_MAX_DELAYS)
			return cli_usage("--delays '%s' has more than %d delays", arg,
					 TT_MAX_DELAYS);
		if (cli_number("delays", tok, 0, 100000000, &a->delays[a->ndelays++]))
			return 2;
	}
	if (!a->ndelays)
		return cli_usage("--delays '%s' lists no delay", arg);
	return 0;
}

/* The options that need no machine: 0 or an exit code (2). */
/* The pages behind the buffers. The latency kernels default to
 * transparent huge pages: MLC's latency figures, the ones users hold
 * these to, are taken on 2 MiB pages (Intel's instructions reserve a
 * hugetlbfs pool for it, echo 4000 > /proc/sys/vm/nr_hugepages), and on
 * 4 KiB pages a chain over gigabytes adds a TLB miss, a page walk, to
 * nearly every load (231 ns against 140 ns on one host, issue 34). THP
 * gives the same 2 MiB reach without root or a pool reserved ahead, and
 * what it gave is read back (AnonHugePages), not assumed; 2M and 1G take
 * hugetlbfs pages from the reserved pool, as MLC does. Bandwidth kernels
 * keep 4 KiB pages: their weights count pages, and one THP is one
 * interleave slot of 512 (place.c). The matrix's bandwidth runs keep them
 * too (the model collector holds auto's 4 KiB trials to their figures);
 * its idle latency, the column users hold to MLC's, takes THP. */
static const struct {
	const char *name;
	bool thp;
	int huge_shift;
} page_sizes[] = {
	{ "4K", false, 0 }, { "thp", true, 0 }, { "2M", false, 21 }, { "1G", false, 30 }
};

/* --page-size's words, for completion; the value itself is matched in any
 * case (2m, THP), as people write page sizes. */
static const char *page_size_name(int i)
{
	return i >= 0 && (size_t)i < sizeof(page_sizes) / sizeof(*page_sizes) ? page_sizes[i].name
									      : NULL;
}

static int page_size_arg(const struct bench_args *a, struct tt_bench_opts *o)
{
	const char *want = a->page_size;

	if (a->thp && want && strcasecmp(want, "thp"))
		return cli_usage("--thp asks for transparent huge pages and --page-size for '%s'; "
				 "give one",
				 want);
	if (a->thp)
		want = "thp";
	if (!want)
		want = o->kernel->kind->bandwidth ? "4K" : "thp";
	for (int i = 0; page_size_name(i); i++)
		if (!strcasecmp(want, page_sizes[i].name)) {
			o->place.thp = page_sizes[i].thp;
			o->place.huge_shift = page_sizes[i].huge_shift;
			o->matrix_lat_thp = a->thp || a->page_size ? page_sizes[i].thp : true;
			o->matrix_lat_huge_shift = page_sizes[i].huge_shift;
			return 0;
		}
	return cli_usage("'--page-size' value '%s' is not a page size; give 4K (base pages), "
			 "thp (transparent huge pages), 2M or 1G (hugetlbfs)",
			 want);
}

static int check_args(const struct bench_args *a, struct tt_bench_opts *o)
{
	o->kernel = tt_kernel_find(a->kernel ? a->kernel : "reads");
	if (!o->kernel)
		return cli_usage("unknown kernel '%s' (see 'tiertune bench --list')", a->kernel);
	if (a->matrix && a->collect)
		return cli_usage("--collect does not take --matrix");
	if (a->matrix && (a->nodes || a->weights || a->placement >= 0 || a->source >= 0))
		return cli_usage("--matrix binds every memory node from every CPU node in turn; it "
				 "takes no --nodes, --weights, --placement or --source-node");
	if (a->matrix && !o->kernel->kind->bandwidth)
		return cli_usage(
			"--matrix measures bandwidth and idle latency; kernel '%s' is not a "
			"bandwidth kernel",
			a->kernel);
	if (a->traffic) {
		o->traffic = tt_kernel_find(a->traffic);
		if (!o->traffic || !o->traffic->kind->bandwidth)
			return cli_usage("--traffic '%s' is not a bandwidth kernel (see 'tiertune "
					 "bench --list')",
					 a->traffic);
		if (!o->kernel->kind->curve)
			return cli_usage("--traffic goes with --kernel loaded-latency");
	}
	if ((a->ndelays || a->point_ms) && !o->kernel->kind->curve)
		return cli_usage("--delays and --point-ms go with --kernel loaded-latency");
	o->point_s = (double)a->point_ms / 1e3;
	memcpy(o->delays, a->delays, sizeof(o->delays));
	o->ndelays = a->ndelays;
	return page_size_arg(a, o);
}

/* The options checked against the topology: placement nodes and weights.
 * A library status. */
static int place_args(struct tt_cli *cli, const struct bench_args *a, const struct tt_topo *t,
		      enum tt_place_mode mode, struct tt_bench_opts *o, struct tt_weights *w)
{
	struct tt_nodemask nodes = { 0 }, src = { 0 };
	int rc, node;

	/* A fixture's nodes are not this machine's: real buffers timed under
	 * them give figures of neither. Only a modelled run makes sense there,
	 * and it is marked simulated throughout. */
	if (!cli->sfs.live && !(a->collect && tt_collectors_simulated(a->collect))) {
		rc = tt_err(TT_EINPUT,
			    "--sysfs-root '%s' is not this machine: bench allocates and "
			    "times real memory, which that topology does not describe",
			    cli->sysfs_root);
		tt_err_hint("model the run with --collect model, or use 'tiertune simulate'");
		return rc;
	}
	o->source_node = a->source >= 0 ? (int)a->source : t->nodes[0].id;
	tt_bit_set(src.bits, (unsigned int)o->source_node);
	rc = tt_topo_check_nodes(t, &src, "--source-node");
	if (rc < 0)
		return rc;
	if (!a->nodes)
		tt_bit_set(nodes.bits, (unsigned int)o->source_node);
	else if (tt_parse_list(a->nodes, nodes.bits, TT_MAX_NODES) || !tt_nodemask_weight(&nodes))
		return tt_err(TT_EINPUT, "--nodes '%s' is not a node list (want e.g. 0-2)",
			      a->nodes);
	rc = tt_topo_check_nodes(t, &nodes, "--nodes");
	if (rc < 0)
		return rc;
	tt_weights_clear(w);
	if (a->weights) {
		if (mode == TT_PLACE_KERNEL)
			return tt_err(TT_EINPUT,
				      "--weights does not go with kernel placement, which "
				      "uses the weights in sysfs (set them with tiertune apply)");
		rc = tt_weights_parse(a->weights, w);
		if (rc == 0)
			rc = tt_weights_check_range(w, 1, 255);
		if (rc < 0)
			return rc;
		tt_nodemask_for_each (node, &w->set) {
			if (!tt_nodemask_test(&nodes, node))
				return tt_err(TT_EINPUT,
					      "weights '%s' give node %d, which is not in "
					      "--nodes",
					      a->weights, node);
		}
	} else if (mode == TT_PLACE_KERNEL) {
		const struct tt_wi_backend *be;
		struct tt_wi_state st;
		struct tt_il_order ord;

		if (tt_wi_pick(&cli->sfs, NULL, &be) < 0) {
			char why[1024];

			snprintf(why, sizeof(why), "%s", tt_err_msg());
			return tt_err(TT_EUNAVAIL, "kernel placement is unavailable: %s", why);
		}
		/* The weights each node gets from what the kernel holds for the
		 * source node's tasks. */
		tt_wi_state_init(&st);
		rc = be->read(&cli->sfs, t, &st);
		if (rc == 0)
			rc = tt_wi_order(be, &st, t, o->source_node, &nodes, &ord);
		tt_wi_state_release(&st);
		if (rc < 0)
			return rc;
		for (int i = 0; i < ord.n; i++)
			tt_weights_put(w, ord.node[i], ord.weight[i]);
	}
	if (mode == TT_PLACE_BIND && tt_nodemask_weight(&nodes) != 1)
		return tt_err(TT_EINPUT, "bind placement takes one node in --nodes, got '%s'",
			      a->nodes);
	bool thp = o->place.thp;
	int huge_shift = o->place.huge_shift;

	rc = tt_place_init(&o->place, mode, &nodes, w, o->source_node);
	o->place.thp = thp;
	o->place.huge_shift = huge_shift;
	return rc;
}

/* The trial's database: opened when it starts measuring (measure/trial.h). */
static int open_record(void *cli, struct tt_db **db)
{
	return cli_db(cli, 0, db);
}

/* The model collector's figures: the bandwidth this machine's newest
 * matrix run measured from the source (collectors/c-model.c), where there
 * is one; else it takes HMAT's. Only for this machine (a fixture's matrix
 * runs are simulated, never measured), and only once the source's CPUs
 * are known to be usable: opening the database, even to read, can leave
 * its WAL file behind, and a refused run must leave it as it was. */
static bool measured_bw(struct tt_cli *cli, const struct bench_args *a, const struct tt_topo *t,
			int src, double *bw, int64_t *run)
{
	int cpus[TT_MAX_CPUS], ncpus;
	struct tt_db *db;
	bool got = false;

	if (!a->collect || !strstr(a->collect, "model") || a->matrix || !cli->sfs.live ||
	    tt_bench_cpus(t, src, cpus, &ncpus) < 0 || (int)a->threads > ncpus ||
	    cli_db(cli, TT_DB_READONLY, &db) < 0)
		return false;
	got = tt_db_measured_bw(db, t, src, bw, run) == 0;
	tt_db_close(db);
	return got;
}

/* A person waiting at a terminal: the header first, then the trial's
 * status line on stderr (progress.h, auto's too), cleared before the
 * results. Nothing of it when stderr is not a terminal. */
struct waiting {
	const struct tt_cli *cli;
	const struct tt_bench_opts *o;
	struct cli_progress line;
};

static int on_started(void *ctx, const struct tt_bench_result *r)
{
	struct waiting *w = ctx;

	if (!w->cli->json)
		print_header(w->cli, w->o, r);
	cli_progress_started(&w->line, w->o->kernel, r);
	return 0;
}

static void on_progress(void *ctx, int n, int of)
{
	struct waiting *w = ctx;

	cli_progress_pass(&w->line, n, of);
}

/* ^C, SIGTERM, SIGHUP: stop between passes, mark the recorded run
 * interrupted, say so. A second one ends the process at once. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
	signal(sig, SIG_DFL);
}

static void catch_signals(bool on)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_signal : SIG_DFL;
	/* Restarted: a system call the signal lands in must not fail for it
	 * (EINTR) and be reported as the run's error; the run polls the flag. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

static int bench(struct tt_cli *cli, const struct bench_args *a, struct summary *sum)
{
	struct tt_trial_opts to = { .bench = { .repeat = (int)a->repeat,
					       .threads = (int)a->threads,
					       .array_bytes = a->size,
					       .verify_max = a->verify_max,
					       .sfs = &cli->sfs },
				    .matrix = a->matrix,
				    .collect = a->collect,
				    .open_db = a->record ? open_record : NULL,
				    .open_db_ctx = cli,
				    .command = cli->cmdline };
	struct tt_bench_opts *o = &to.bench;
	enum tt_place_mode mode = TT_PLACE_EXACT;
	struct tt_trial_result *res = NULL;
	struct tt_weights w;
	struct tt_topo *t;
	double measured[TT_MAX_NODES];
	int64_t mrun = 0;
	int rc = check_args(a, o);

	if (rc)
		return rc;
	/* Caught from here on, not only once the run starts: a ^C while the
	 * topology, the placement or the database is read (seconds on a busy
	 * host) stops the run at its first check and says so, where the
	 * default action would end the process without a word (t0004). */
	catch_signals(true);
	if (a->placement >= 0)
		mode = (enum tt_place_mode)a->placement;
	rc = cli_setup(cli);
	if (rc)
		goto out;
	t = cli->topo;
	o->topo = t;
	rc = place_args(cli, a, t, mode, o, &w);
	if (rc < 0)
		goto out;
	if (mode == TT_PLACE_EXACT || mode == TT_PLACE_KERNEL)
		to.weights = &w;
	if (measured_bw(cli, a, t, o->source_node, measured, &mrun)) {
		to.measured_bw_bytes_s = measured;
		if (!cli->json)
			printf("model collector: bandwidth measured from node %d by matrix run %jd "
			       "where it has a figure, HMAT's elsewhere\n",
			       o->source_node, (intmax_t)mrun);
	}
	struct waiting wait = { .cli = cli, .o = o };

	cli_progress_init(&wait.line, isatty(STDERR_FILENO));
	o->started = a->matrix ? NULL : on_started;
	o->progress = on_progress;
	o->report_ctx = &wait;
	o->touched_bytes = cli_progress_counter(&wait.line);
	o->stop = &stop_signal;
	rc = tt_trial_run(&to, &res);
	cli_progress_end(&wait.line);
	if (rc < 0 && stop_signal) {
		fflush(stdout);
		cli_say("tiertune: stopped: ", tt_err_msg());
		rc = 128 + stop_signal;
		goto out;
	}
	if (rc < 0)
		goto out;
	rc = a->matrix ? report_matrix(cli, o, res) : report(cli, o, res, t, sum);
out:
	catch_signals(false);
	tt_trial_free(res);
	return rc < 0 ? cli_fail(rc) : rc;
}

/* --placement's choices: the placement table's names. */
static const char *place_mode_name(int i)
{
	return i >= 0 && i <= TT_PLACE_LOCAL ? tt_place_mode_names[i] : NULL;
}

static int delays_option(const struct cli_opt *opt, const char *arg)
{
	return parse_delays(arg, opt->value);
}

int cmd_bench(struct tt_cli *cli, int argc, char **argv)
{
	struct bench_args a = { .source = -1, .repeat = 10, .placement = -1 };
	struct cli_opt opts[] = {
		CLI_STRING("kernel", &a.kernel, "NAME",
			   "the kernel to run (--list shows them; default: STREAM's copy, scale, "
			   "add and triad in turn)"),
		CLI_FLAG("list", &a.list,
			 "list the kernels: kind, bytes counted, MLC's equivalent"),
		CLI_FLAG("matrix", &a.matrix,
			 "bandwidth and idle latency from every CPU node to every memory node"),
		CLI_SOURCE_NODE(&a.source,
				"the node whose CPUs run the threads (default: the first "
				"node with CPUs)"),
		CLI_STRING("nodes", &a.nodes, "LIST",
			   "the policy's nodes (default: the source node)"),
		CLI_STRING(
			"weights", &a.weights, "N:W,...",
			"weights of the policy's nodes, 1-255 (default: 1 each; kernel placement: "
			"the sysfs weights)"),
		CLI_CHOICE(
			"placement", &a.placement, NULL,
			"exact (the kernel's weighted-interleave order, no root; default), kernel "
			"(MPOL_WEIGHTED_INTERLEAVE), interleave (1:1), bind (one node), local",
			.choice = place_mode_name, .arg = "MODE"),
		CLI_U64("threads", &a.threads, "T",
			"threads, at most one per allowed CPU of the source node (default: one per "
			"allowed CPU)",
			1, 4096),
		CLI_SIZE("size", &a.size, "BYTES",
			 "per array; K, M, G, T (powers of 1024, any case, iB optional) or bytes "
			 "(default: STREAM's rule, 4x the last-level cache, at least 1M elements)",
			 4096, UINT64_C(1) << 46),
		CLI_U64("repeat", &a.repeat, "R", "timed passes (default 10)", 1, 100000),
		CLI_U64("verify-max", &a.verify_max, "PAGES",
			"ask move_pages about at most this many pages, every k-th (default 0: all)",
			0, UINT64_MAX),
		CLI_STRING("page-size", &a.page_size, "SIZE",
			   "the pages behind the buffers: 4K, thp (transparent huge pages), 2M or "
			   "1G (hugetlbfs, from the reserved pool) (default: thp for latency, the "
			   "matrix's too, as MLC measures; 4K otherwise)",
			   .choice = page_size_name),
		CLI_FLAG("thp", &a.thp, "--page-size thp"),
		CLI_CALL(
			"delays", delays_option, &a, "D,...",
			"loaded latency: the traffic threads' delays, in spin iterations per cache "
			"line (default: MLC's sweep)"),
		CLI_STRING("traffic", &a.traffic, "KERNEL",
			   "loaded latency: the bandwidth kernel the other threads run (default "
			   "reads)"),
		CLI_U64("point-ms", &a.point_ms, "MS",
			"loaded latency: milliseconds per delay point (default 500)", 10, 600000),
		CLI_STRING("collect", &a.collect, "LIST",
			   "collectors to sample at 10 Hz over the timed passes (see 'tiertune "
			   "collectors')"),
		CLI_FLAG("record", &a.record,
			 "store the run, its trials and samples in the database"),
		CLI_END,
	};
	int nargs, rc = cli_parse(cli, cli_find_command("bench"), opts, argc, argv, &nargs);

	if (rc >= 0)
		return rc;
	if (a.list)
		return list_kernels(cli);
	if (a.kernel || a.matrix)
		return bench(cli, &a, NULL);
	/* No kernel named: STREAM's four, in STREAM's order, as STREAM and
	 * likwid-bench users expect; each run whole (header, passes, figures),
	 * recorded as its own run with --record, then the summary STREAM ends
	 * with. With --json, one document: each kernel's under "kernels", the
	 * summary's rows under "summary", printed once all have run. The
	 * first failure or signal ends it, with no summary. */
	static const char *const stream[] = { "copy", "scale", "add", "triad" };
	struct summary sum = { .docs = cli->json ? json_array() : NULL };

	if (a.ndelays || a.point_ms || a.traffic)
		return cli_usage("--delays, --point-ms and --traffic go with --kernel "
				 "loaded-latency");
	if (!cli->json)
		say("STREAM: copy, scale, add and triad in turn (--kernel NAME runs one)");
	rc = 0;
	for (size_t i = 0; i < sizeof(stream) / sizeof(*stream) && rc == 0; i++) {
		if (!cli->json)
			printf("\n");
		a.kernel = stream[i];
		rc = bench(cli, &a, &sum);
	}
	if (rc == 0 && cli->json)
		return cli_print_json(json_pack("{s:o,s:o}", "kernels", sum.docs, "stream",
						tt_stream_json(&sum.stream)));
	json_decref(sum.docs);
	if (rc == 0)
		tt_stream_text(text_out(), &sum.stream);
	return rc;
}
