// SPDX-License-Identifier: GPL-3.0-or-later
/* A trial: run, collect, record (see trial.h). */
#include "trial.h"

#include "../bench/kernels.h"
#include "../core/error.h"
#include "../db/db.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct trial {
	const struct tt_trial_opts *o;
	struct tt_collect *collect;
	struct tt_db *db;
	int64_t run;
	int db_rc;		 /* opening the record failed: the trial's status */
	double t_on, measured_s; /* CLOCK_MONOTONIC when measuring began; its length, s */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int record_begin(struct trial *t)
{
	const struct tt_trial_opts *o = t->o;
	const struct tt_topo *topo = o->bench.topo;
	struct tt_objective obj = { .kind = o->matrix ? TT_OBJ_MATRIX
						      : o->bench.kernel->kind->objective };
	char objective[TT_OBJECTIVE_TEXT_MAX];
	int64_t host;
	int rc = t->db ? 0 : o->open_db(o->open_db_ctx, &t->db);

	if (rc < 0)
		goto out;
	snprintf(obj.kernel, sizeof(obj.kernel), "%s", o->bench.kernel->name);
	rc = tt_objective_format(&obj, objective, sizeof(objective));
	if (rc == 0)
		rc = tt_db_host(t->db, topo, &host);
	if (rc == 0)
		rc = tt_db_run_begin(
			t->db,
			&(struct tt_db_run){ .host_id = host,
					     .kind = "bench",
					     .command = o->command,
					     .source_node = o->matrix ? -1 : o->bench.source_node,
					     .objective = objective,
					     .kernel_release = topo->kernel_release,
					     .simulated = !o->bench.sfs->live },
			&t->run);
out:
	if (rc < 0 && t->db) {
		tt_db_close(t->db);
		t->db = NULL;
	}
	return rc;
}

/* The bench's started hook: the buffers fit, so the run is not refused
 * for its input; the database is opened now, before the caller hears of the
 * run (its header) and before the buffers are touched, so one that cannot
 * take the run fails it first. Its record begins with the measurement. */
static int started(void *ctx, const struct tt_bench_result *r)
{
	struct trial *t = ctx;
	const struct tt_trial_opts *o = t->o;

	if (o->open_db && !t->db && (t->db_rc = o->open_db(o->open_db_ctx, &t->db)) < 0)
		return t->db_rc;
	return o->bench.started ? o->bench.started(o->bench.report_ctx, r) : 0;
}

/* The caller's progress hook, under the report context started took. */
static void progress(void *ctx, int n, int of)
{
	const struct tt_bench_opts *b = &((struct trial *)ctx)->o->bench;

	if (b->progress)
		b->progress(b->report_ctx, n, of);
}

/* The bench phase hook: the record begins first, then the collectors'
 * window opens, so the database write is not inside what they measure. */
static void phase(void *ctx, bool measuring)
{
	struct trial *t = ctx;

	if (measuring && t->o->open_db && !t->run && t->db_rc == 0)
		t->db_rc = record_begin(t);
	if (t->collect)
		tt_collect_phase(t->collect, measuring);
	/* Timed after the record and the collectors: what is left out of the
	 * window is the trial's overhead (bench/scripts/tuner-overhead.sh). */
	if (measuring)
		t->t_on = now_s();
	else if (t->t_on > 0)
		t->measured_s += now_s() - t->t_on;
}

/* The collectors' OK readings of the measured phase, tied to the trial (0:
 * to the run alone). */
static int record_samples(struct trial *t, int64_t trial, const struct tt_collect_summary *sum)
{
	struct tt_db_sample *smp;
	size_t n = 0;
	int rc;

	if (!sum->nreadings)
		return 0;
	smp = calloc(sum->nreadings, sizeof(*smp));
	if (!smp)
		return tt_err(TT_EFAIL, "out of memory");
	for (size_t i = 0; i < sum->nreadings; i++) {
		const struct tt_reading *r = &sum->readings[i];
		const struct tt_metric_summary *m = NULL;

		if (r->state != TT_S_OK)
			continue;
		for (int j = 0; j < sum->n && !m; j++)
			if (sum->metrics[j].source == r->source &&
			    sum->metrics[j].index == r->metric)
				m = &sum->metrics[j];
		if (!m)
			continue;
		smp[n++] =
			(struct tt_db_sample){ .t_s = r->t_s,
					       .collector = m->collector->name,
					       .metric = m->metric.name,
					       .node = m->metric.node,
					       .value = r->value,
					       .simulated = m->collector->flags & TT_C_SIMULATED };
	}
	rc = tt_db_samples_add(t->db, t->run, trial, smp, n);
	free(smp);
	return rc;
}

/* Of the buffers' bytes, the share on huge pages; NaN: no buffer. */
static double huge_share(const struct tt_pages_got *p)
{
	return p->buffer_bytes ? (double)p->huge_bytes / (double)p->buffer_bytes : NAN;
}

/* The result as trials, each with the nodes its pages were placed on; a
 * curve's points share one measured phase, so its samples go to the run. */
static int record_result(struct trial *t, const struct tt_trial_result *res)
{
	const struct tt_bench_opts *o = &t->o->bench;
	const struct tt_bench_result *r = &res->bench;
	const struct tt_place_report *p = &r->place;
	const struct tt_kind *kind = o->kernel->kind;
	struct tt_db_trial_node nodes[64];
	struct tt_kind_trial kt;
	int nn = 0, rc = 0;
	int64_t id = 0;
	char judged[160];

	for (int node = 0; node < TT_MAX_NODES && nn < 64; node++) {
		if (!p->want[node] && !p->got[node])
			continue;
		nodes[nn++] = (struct tt_db_trial_node){
			.node = node,
			.pages = p->got[node],
			.weight = t->o->weights ? tt_weights_get(t->o->weights, node, 1) : 0,
			.requested_share = (double)p->want[node] / (double)p->checked,
			.achieved_share = (double)p->got[node] / (double)p->checked
		};
	}
	tt_judged_text(tt_bench_judged(r), judged, sizeof(judged));
	for (int i = 0; i < kind->ntrials(r) && rc == 0; i++) {
		kind->trial(o, r, i, &kt);
		rc = tt_db_trial_add(
			t->db, t->run,
			&(struct tt_db_trial){ .kernel = o->kernel->name,
					       .mix = kt.mix,
					       .placement = tt_place_mode_names[o->place.mode],
					       .threads = r->threads,
					       .size_bytes = r->array_bytes,
					       .bw_best_bytes_s = kt.bw_best_bytes_s,
					       .bw_median_bytes_s = kt.bw_median_bytes_s,
					       .bw_min_bytes_s = kt.bw_min_bytes_s,
					       .lat_best_ns = kt.lat_best_ns,
					       .lat_median_ns = kt.lat_median_ns,
					       .lat_max_ns = kt.lat_max_ns,
					       .validated = r->validated,
					       .simulated = !o->sfs->live,
					       .llc_bytes = r->llc.bytes,
					       .below_llc_rule = r->below_rule,
					       .cache_resident = r->cache_resident,
					       .short_pass = r->short_pass,
					       .checked = true,
					       .unstable = r->unstable,
					       .descheduled = r->descheduled,
					       .cpu_share = r->ran.passes ? r->ran.share : NAN,
					       .judged = judged,
					       .page_bytes = r->pages.page_bytes,
					       .thp_requested = r->pages.thp_asked,
					       .huge_page_share = huge_share(&r->pages),
					       .nnodes = nn,
					       .nodes = nodes },
			&id);
	}
	if (rc == 0 && res->collected)
		rc = record_samples(t, kind->curve ? 0 : id, &res->sum);
	return rc;
}

/* The matrix: a trial per CPU node and memory node, the memory node bound
 * (verified, or the run would have failed). One pass figure each: the
 * matrix keeps the best bandwidth and the median latency. Its pages are
 * the latency runs', the figure they change. */
static int record_matrix(struct trial *t, const struct tt_matrix *m)
{
	const struct tt_kernel *k = t->o->bench.kernel;
	char mix[64], judged[160];
	int rc = 0;
	int64_t id;

	tt_judged_text(tt_matrix_judged(m), judged, sizeof(judged));
	for (int c = 0; c < m->ncpu && rc == 0; c++) {
		for (int j = 0; j < m->nmem && rc == 0; j++) {
			int i = c * m->nmem + j;
			struct tt_db_trial_node node = { .node = m->mem_node[j],
							 .requested_share = 1,
							 .achieved_share = 1,
							 .pages = m->pages[i] };

			snprintf(mix, sizeof(mix), "%s from CPU node %d", k->counting,
				 m->cpu_node[c]);
			rc = tt_db_trial_add(
				t->db, t->run,
				&(struct tt_db_trial){ .kernel = k->name,
						       .mix = mix,
						       .placement = "bind",
						       .threads = m->threads[c],
						       .size_bytes = m->array_bytes,
						       .bw_best_bytes_s = m->bw_bytes_s[i],
						       .lat_median_ns = m->lat_ns[i],
						       .validated = true,
						       .simulated = !t->o->bench.sfs->live,
						       .llc_bytes = m->llc.bytes,
						       .below_llc_rule = m->below_rule,
						       .cache_resident = m->cache_resident,
						       .short_pass = m->short_pass,
						       .checked = true,
						       .unstable = m->unstable,
						       .descheduled = m->descheduled,
						       .cpu_share = NAN,
						       .judged = judged,
						       .page_bytes = m->lat_pages.page_bytes,
						       .thp_requested = m->lat_pages.thp_asked,
						       .huge_page_share = huge_share(&m->lat_pages),
						       .nnodes = 1,
						       .nodes = &node },
				&id);
		}
	}
	return rc;
}

int tt_trial_run(const struct tt_trial_opts *o, struct tt_trial_result **out)
{
	struct trial t = { .o = o };
	struct tt_bench_opts b = o->bench;
	struct tt_trial_result *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return tt_err(TT_EFAIL, "out of memory");
	b.phase = phase;
	b.phase_ctx = &t;
	b.started = started;
	b.progress = progress;
	b.report_ctx = &t;
	if (o->collect) {
		struct tt_collect_ctx ctx = { .sfs = b.sfs,
					      .topo = b.topo,
					      .source_node = b.source_node,
					      .weights = o->weights,
					      .measured_bw_bytes_s = o->measured_bw_bytes_s };

		rc = o->matrix ? tt_err(TT_EINPUT, "collectors do not sample the matrix")
			       : tt_collect_begin(&ctx, o->collect, &t.collect);
		if (rc < 0)
			goto out;
	}
	if (o->matrix) {
		rc = tt_bench_matrix(&b, &r->matrix);
		r->has_matrix = rc == 0;
	} else {
		rc = tt_bench_run(&b, &r->bench);
		/* Refused as unstable: named by its weights, as a tuner's
		 * search has measured others before it. */
		if (rc < 0 && r->bench.unstable_runs == TT_UNSTABLE_RUNS && o->weights) {
			char w[256];

			tt_weights_format(o->weights, w, sizeof(w));
			tt_err_prefix("trial %s", w);
		}
	}
	r->measured_s = t.measured_s;
	if (t.collect) {
		int crc = tt_collect_end(t.collect, &r->sum);

		r->collected = true;
		if (rc == 0)
			rc = crc;
	}
	if (t.db_rc)
		rc = t.db_rc;
	if (rc < 0 || !t.run)
		goto out;
	rc = o->matrix ? record_matrix(&t, &r->matrix) : record_result(&t, r);
	if (rc == 0)
		rc = tt_db_run_finish(t.db, t.run, TT_RUN_DONE);
	if (rc == 0)
		r->run_id = t.run;
out:
	if (t.run && rc < 0) {
		/* Keep the failure's message: it is the one to report. A run a
		 * signal stopped was interrupted, not failed, and says so: no
		 * reader need guess later. */
		char msg[1024];
		bool stopped = o->bench.stop && *o->bench.stop;

		snprintf(msg, sizeof(msg), "%s", tt_err_msg());
		tt_db_run_finish(t.db, t.run, stopped ? TT_RUN_INTERRUPTED : TT_RUN_FAILED);
		if (stopped)
			tt_err(rc, "%s; run %jd marked interrupted", msg, (intmax_t)t.run);
		else
			tt_err(rc, "%s", msg);
	}
	if (!t.run && rc < 0 && o->open_db && o->bench.stop && *o->bench.stop) {
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", tt_err_msg());
		tt_err(rc, "%s; nothing recorded (no pass was timed)", msg);
	}
	if (t.db)
		tt_db_close(t.db);
	if (rc < 0) {
		tt_trial_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void tt_trial_free(struct tt_trial_result *r)
{
	if (!r)
		return;
	if (r->has_matrix)
		tt_matrix_release(&r->matrix);
	if (r->collected)
		tt_collect_summary_release(&r->sum);
	free(r);
}

double tt_trial_lat_at(const struct tt_loaded_point *p, int n, double traffic_bytes_s,
		       bool *overloaded, double *capacity_bytes_s)
{
	double t = traffic_bytes_s;
	int top = 0;

	for (int i = 1; i < n; i++)
		if (p[i].bw_bytes_s > p[top].bw_bytes_s)
			top = i;
	*capacity_bytes_s = n > 0 && p[top].bw_bytes_s > 0 ? p[top].bw_bytes_s : 0;
	*overloaded = !(t <= *capacity_bytes_s);
	if (n < 1 || !(p[0].bw_bytes_s > 0))
		return INFINITY;
	if (*overloaded)
		return p[top].lat_ns * t / p[top].bw_bytes_s;
	if (t >= p[0].bw_bytes_s)
		return p[0].lat_ns;
	for (int i = 1; i < n; i++)
		if (t >= p[i].bw_bytes_s) {
			double f = (t - p[i].bw_bytes_s) / (p[i - 1].bw_bytes_s - p[i].bw_bytes_s);

			return p[i].lat_ns + f * (p[i - 1].lat_ns - p[i].lat_ns);
		}
	return p[n - 1].lat_ns;
}

int tt_trial_check_cache(const struct tt_bench_opts *o)
{
	struct tt_bench_result *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return tt_err(TT_EFAIL, "out of memory");
	rc = tt_bench_prepare(o, r);
	rc = rc < 0 && r->below_rule ? rc : 0;
	free(r);
	return rc;
}

/* Delays (spin iterations per cache line) that step the mix from flat out
 * towards idle: the traffic levels a latency-objective trial measures at,
 * to find the stated one among them. */
static const uint64_t traffic_ladder[] = { 0, 20, 100, 400, 2000 };
#define LADDER_N (int)(sizeof(traffic_ladder) / sizeof(*traffic_ladder))
/* Each point of a loaded-latency trial, s. */
#define LAT_POINT_S 0.25

int tt_trial_loaded(const struct tt_trial_opts *o, bool ladder, double traffic_bytes_s,
		    struct tt_sample *out, struct tt_trial_result **r)
{
	struct tt_trial_opts lo = *o;
	int n = ladder ? LADDER_N : 1, rc;

	lo.bench.kernel = tt_kernel_find("loaded-latency");
	lo.bench.traffic = o->bench.kernel;
	lo.bench.ndelays = n;
	lo.bench.point_s = LAT_POINT_S;
	memcpy(lo.bench.delays, traffic_ladder, (size_t)n * sizeof(*traffic_ladder));
	if ((rc = tt_trial_run(&lo, r)) < 0)
		return rc;
	if (ladder) {
		out->lat_ns =
			tt_trial_lat_at((*r)->bench.points, (*r)->bench.npoints, traffic_bytes_s,
					&out->overloaded, &out->capacity_bytes_s);
		out->score = 1e9 / out->lat_ns;
	} else {
		out->lat_ns = (*r)->bench.points[0].lat_ns;
		out->score = (*r)->bench.points[0].bw_bytes_s;
	}
	return 0;
}

double tt_trial_loaded_s(bool ladder)
{
	return LAT_POINT_S * (ladder ? (double)LADDER_N : 1);
}

void tt_trial_achieved(const struct tt_trial_result *r, const struct tt_weights *w, double *share,
		       int max)
{
	int node, k = 0;

	if (!r->bench.place.checked)
		return;
	tt_nodemask_for_each (node, &w->set) {
		if (k < max)
			share[k++] =
				(double)r->bench.place.got[node] / (double)r->bench.place.checked;
	}
}

void tt_trial_figures(const double *bw_bytes_s, const double *lat_ns, int n, struct tt_db_trial *d)
{
	double lo = INFINITY, hi = -INFINITY, llo = INFINITY, lhi = -INFINITY;

	for (int j = 0; j < n; j++) {
		if (bw_bytes_s) {
			lo = fmin(lo, bw_bytes_s[j]);
			hi = fmax(hi, bw_bytes_s[j]);
		}
		llo = fmin(llo, lat_ns[j]);
		lhi = fmax(lhi, lat_ns[j]);
	}
	if (bw_bytes_s) {
		d->bw_best_bytes_s = hi;
		d->bw_median_bytes_s = tt_median(bw_bytes_s, n);
		d->bw_min_bytes_s = lo;
	}
	if (isfinite(llo)) {
		d->lat_best_ns = llo;
		d->lat_median_ns = tt_median(lat_ns, n);
		d->lat_max_ns = lhi;
	}
}
