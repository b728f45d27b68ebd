/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A recorded run's objective: what its trials were ranked by. The
 * database keeps it as text in runs.objective (schema v1 on); this file
 * and objective.c are the only code that knows that text:
 *
 *	"bandwidth:triad"                a kernel's bandwidth (bench, auto, sweep)
 *	"bandwidth:triad,latency-bound"  the same under auto --max-latency
 *	"latency:latency"                a latency kernel (bench)
 *	"latency:loaded-latency"         bench's loaded-latency curve
 *	"latency:triad@10GB/s"           auto --objective latency at a traffic
 *	"matrix:reads"                   bench --matrix
 *	"app:wall-time"                  auto -- COMMAND, by wall time
 *	"app:metric,higher-is-better"    auto --metric ... (or lower-is-better)
 *
 *	struct tt_objective o = { .kind = TT_OBJ_BANDWIDTH, .kernel = "triad" };
 *	tt_objective_format(&o, buf, sizeof(buf));     (what a run records)
 *	tt_objective_parse(text, &o);                  (what a reader gets back)
 *
 * Runs that measure nothing (apply, restore, rebalance) keep a note in the
 * same column ("run 12", "pid 4242 (postgres)"); readers ask
 * tt_objective_of_run, which does not parse those.
 */
#ifndef TT_OBJECTIVE_H
#define TT_OBJECTIVE_H

#include <stdbool.h>
#include <stddef.h>

enum tt_objective_kind {
	TT_OBJ_NONE,	  /* a run that measures nothing */
	TT_OBJ_BANDWIDTH, /* a kernel's bandwidth, higher is better */
	TT_OBJ_LATENCY,	  /* ns per dependent load, lower is better */
	TT_OBJ_MATRIX,	  /* every CPU node to every memory node */
	TT_OBJ_WALL_TIME, /* a program's wall time, lower is better */
	TT_OBJ_METRIC,	  /* a number the program prints */
};

#define TT_OBJECTIVE_KERNEL_MAX 32 /* bytes of a kernel name, with its NUL */
#define TT_OBJECTIVE_TEXT_MAX 96   /* bytes of the text form, with its NUL */

struct tt_objective {
	enum tt_objective_kind kind;
	char kernel[TT_OBJECTIVE_KERNEL_MAX]; /* bandwidth, latency, matrix; else "" */
	/* latency: the traffic the mix runs at, 10^9 bytes/s as the text
	 * names it (auto --traffic-rate); 0: none (a bench kernel). Kept in
	 * the text's unit so that text and struct convert both ways exactly. */
	double traffic_gb_s;
	bool latency_bound; /* bandwidth: ranked under auto --max-latency */
	bool lower_better;  /* metric: lower is better (else higher) */
};

/* The objectives a run can be asked to rank by, as auto's --objective
 * names them: tt_objective_names (NULL-terminated, the option's words in
 * order) and tt_objective_choice (the kind of the i-th). To add one: its
 * kind in enum tt_objective_kind, its line in OBJECTIVE_CHOICES
 * (objective.c), its figure (core/figure.c tt_objective_figure). */
extern const char *const tt_objective_names[];
enum tt_objective_kind tt_objective_choice(int i);
/* The traffic a latency objective runs at in bytes/s (traffic_gb_s is
 * kept in the text's unit); 0 for none. */
double tt_objective_traffic_bytes_s(const struct tt_objective *o);

/* The text of o into buf (at most TT_OBJECTIVE_TEXT_MAX bytes are
 * needed): 0, or TT_EINPUT when o has no text form (TT_OBJ_NONE, a kernel
 * name that is empty, too long or holds other than [A-Za-z0-9._+-], a
 * traffic that is not finite and positive) or buf is too small. */
int tt_objective_format(const struct tt_objective *o, char *buf, size_t size);
/* text as an objective: 0, or TT_EINPUT quoting the text. Exactly the
 * forms tt_objective_format writes are accepted; a traffic may be written
 * with more or fewer digits than format would ("10.0GB/s"). */
int tt_objective_parse(const char *text, struct tt_objective *o);
/* A recorded run's objective from its kind and text: the text parsed,
 * else TT_OBJ_NONE for a run that measures nothing (any kind but "bench",
 * "auto" and "sweep": its text is a note). TT_EINPUT naming run id when
 * the text of a measuring run (or of one of no kind) does not parse. */
int tt_objective_of_run(long long id, const char *kind, const char *text, struct tt_objective *o);
/* Whether a and b are the same objective. */
bool tt_objective_equal(const struct tt_objective *a, const struct tt_objective *b);

#endif
