// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * The default search, on the shares of the traffic each node takes (run()
 * at the end says which part runs when).
 *
 * Two nodes: one number matters, the slow node's share x. Bandwidth (or
 * any score) is unimodal in x: it rises while the fast node saturates first
 * and falls once the slow one does (or, concurrency-bound, once its latency
 * costs more than its bandwidth gives). A golden-section search on x, each
 * point snapped to the nearest weight vector, brackets the peak with a few
 * trials. Then, because a noisy comparison of two points near the peak is a
 * coin toss, every measurement near the bracket is used at once: time per
 * byte (1 / score) is piecewise linear in x when bandwidth-bound (max of
 * s_i * cost_i, model.h) and convex when concurrency-bound, so a hinge, two
 * least-squares lines meeting at the peak, is fitted and its corner tried;
 * until the corner lands on a vector already tried. Pooling many noisy
 * measurements beats picking the best of noisy means (the winner's curse).
 *
 * More nodes, by the machine's structure (issue 22): the same search on a
 * line through the simplex. One node, the one with the most bandwidth from
 * the source (its local DRAM, or HBM), takes 1 - x; the others share x by
 * their bandwidths (REST_POWER), so that the split that matters most, the
 * fast node against the rest, is a 1-D problem whatever the node count,
 * and nodes of one class (equal figures) keep equal shares. The
 * surrogate of s-fitted.c, fitted to every measurement, then moves off the
 * line when the budget holds enough measurements for it.
 *
 * With a latency bound or the latency objective (a sampling search) on
 * three nodes or more: a pattern search on the simplex of shares from the
 * best of the baselines and the prior: moves of step d towards a node, away
 * from a node, or from one node to another; the first move that beats the
 * incumbent (tt_search_better: repeats while intervals overlap) is taken,
 * else the step halves, down to the weight space's resolution. The
 * remaining budget then races the leaders: more measurements for each trial
 * whose interval overlaps the best's, so the winner is not a lucky draw.
 * Last, as for two nodes, a quadratic bowl in the shares is fitted to
 * every trial within 15% of the best and its bottom tried; it wins unless
 * a trial beats it beyond the noise. A node left with a weight of one or
 * two is then raced against the face of the simplex without it (faces()),
 * and on a face the remaining shares are searched again from a small step.
 */
#include "search.h"

#include "../core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct point {
	double x;			 /* the share off the line's fast node */
	uint32_t w[TT_SEARCH_MAX_NODES]; /* reduced */
};

/* The line the 1-D search runs on: vectors ordered by x, the share of
 * every node but fast. */
struct line {
	struct point *p;
	int n;
	int fast;
};

struct line_pts {
	double x, y, wt;
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x;
}

static int cmp_xy(const void *a, const void *b)
{
	const struct line_pts *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x;
}

/* Index of the lattice point nearest to x. */
static int nearest(const struct point *p, int n, double x)
{
	int lo = 0, hi = n - 1;

	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;

		if (p[mid].x <= x)
			lo = mid;
		else
			hi = mid;
	}
	return fabs(p[lo].x - x) <= fabs(p[hi].x - x) ? lo : hi;
}

static void ols(const struct line_pts *p, int n, double *slope, double *icpt, double *sse)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, d;

	for (int i = 0; i < n; i++) {
		sx += p[i].x;
		sy += p[i].y;
		sxx += p[i].x * p[i].x;
		sxy += p[i].x * p[i].y;
	}
	d = n * sxx - sx * sx;
	*slope = d != 0 ? (n * sxy - sx * sy) / d : 0;
	*icpt = (sy - *slope * sx) / n;
	*sse = 0;
	for (int i = 0; i < n; i++) {
		double r = p[i].y - (*icpt + *slope * p[i].x);

		*sse += r * r;
	}
}

/* The corner of the best-fitting hinge through p (sorted by x): left line
 * falling less steeply than the right one rises, i.e. a valley of time per
 * byte. Returns false when no split has two distinct x on each side. */
static bool hinge(const struct line_pts *p, int n, double *corner, double *sse)
{
	double best_sse = INFINITY;
	bool found = false;

	for (int split = 1; split < n; split++) {
		double ml, bl, sl, mr, br, sr, xc;
		int dl = 0, dr = 0;

		if (p[split].x == p[split - 1].x)
			continue;
		for (int i = 1; i < split; i++)
			dl += p[i].x != p[i - 1].x;
		for (int i = split + 1; i < n; i++)
			dr += p[i].x != p[i - 1].x;
		if (dl < 1 || dr < 1)
			continue;
		ols(p, split, &ml, &bl, &sl);
		ols(p + split, n - split, &mr, &br, &sr);
		if (!(mr > ml) || sl + sr >= best_sse)
			continue;
		xc = (bl - br) / (mr - ml);
		/* The corner lies between the two groups, or it is not theirs. */
		if (xc < p[split - 1].x)
			xc = p[split - 1].x;
		if (xc > p[split].x)
			xc = p[split].x;
		best_sse = sl + sr;
		*corner = xc;
		found = true;
	}
	*sse = best_sse;
	return found;
}

/* Vertex of the least-squares parabola through p, when it opens upwards
 * (a valley of time per byte). Solves the 3x3 normal equations. */
static bool parabola(const struct line_pts *p, int n, double *vertex, double *sse)
{
	double s[5] = { 0 }, t[3] = { 0 }, a[3][4], c2, c1;

	for (int i = 0; i < n; i++) {
		double xp = p[i].wt;

		for (int k = 0; k < 5; k++) {
			if (k < 3)
				t[k] += xp * p[i].y;
			s[k] += xp;
			xp *= p[i].x;
		}
	}
	for (int r = 0; r < 3; r++) {
		for (int k = 0; k < 3; k++)
			a[r][k] = s[r + k];
		a[r][3] = t[r];
	}
	for (int col = 0; col < 3; col++) {
		int piv = col;

		for (int r = col + 1; r < 3; r++)
			if (fabs(a[r][col]) > fabs(a[piv][col]))
				piv = r;
		if (fabs(a[piv][col]) < 1e-300)
			return false;
		for (int k = 0; k < 4; k++) {
			double tmp = a[col][k];

			a[col][k] = a[piv][k];
			a[piv][k] = tmp;
		}
		for (int r = 0; r < 3; r++)
			if (r != col) {
				double f = a[r][col] / a[col][col];

				for (int k = 0; k < 4; k++)
					a[r][k] -= f * a[col][k];
			}
	}
	c1 = a[1][3] / a[1][1];
	c2 = a[2][3] / a[2][2];
	if (!(c2 > 0))
		return false;
	*vertex = -c1 / (2 * c2);
	*sse = 0;
	for (int i = 0; i < n; i++) {
		double r = p[i].y - (a[0][3] / a[0][0] + c1 * p[i].x + c2 * p[i].x * p[i].x);

		*sse += r * r;
	}
	return *vertex >= p[0].x && *vertex <= p[n - 1].x;
}

static int try_point(struct tt_search *s, const struct line *ln, int i)
{
	return tt_search_try(s, ln->p[i].w, s->cfg.min_repeats, TT_PHASE_SEARCH);
}

static int find_point(const struct tt_search *s, const struct line *ln, int i)
{
	return tt_search_find(s, ln->p[i].w);
}

/* Trial t's share off the fast node: its place on the line. */
static double slow_share(const struct tt_search *s, const struct line *ln, int t)
{
	const struct tt_trial *tr = &s->trials[t];
	double sum = 0;

	for (int k = 0; k < s->cfg.nnodes; k++)
		sum += tr->w[k];
	return (sum - tr->w[ln->fast]) / sum;
}

/* Whether trial t is a vector of the line (on two nodes, every one is):
 * only those are fitted, a baseline off it would bend the peak. */
static bool on_line(const struct tt_search *s, const struct line *ln, int t)
{
	double x = slow_share(s, ln, t);
	int i = nearest(ln->p, ln->n, x);

	for (int j = i; j >= 0 && fabs(ln->p[j].x - x) < 1e-12; j--)
		if (tt_search_find(s, ln->p[j].w) == t)
			return true;
	for (int j = i + 1; j < ln->n && fabs(ln->p[j].x - x) < 1e-12; j++)
		if (tt_search_find(s, ln->p[j].w) == t)
			return true;
	return false;
}

static int best_mean(const struct tt_search *s)
{
	int best = -1;

	for (int t = 0; t < s->ntrials; t++)
		if (s->trials[t].n >= s->cfg.min_repeats &&
		    (best < 0 || s->trials[t].mean > s->trials[best].mean))
			best = t;
	return best;
}

/* The trial of the line with the highest mean, -1: none. */
static int best_on(const struct tt_search *s, const struct line *ln)
{
	int best = -1;

	for (int t = 0; t < s->ntrials; t++)
		if (s->trials[t].n >= s->cfg.min_repeats &&
		    (best < 0 || s->trials[t].mean > s->trials[best].mean) && on_line(s, ln, t))
			best = t;
	return best;
}

/* Fits the peak to the measurements of the trials nearest in x to around;
 * *thin, when asked, is the nearest of them with fewest measurements below
 * max_repeats (-1: none). 1 when a peak was found, 0 when not. */
static int fit_near(struct tt_search *s, const struct line *ln, double around, double *corner,
		    int *thin)
{
	/* The measurements of every trial within 15% of the best mean (up to
	 * the 64 nearest in x to around), each weighted by exp(-drop / 5%)
	 * with drop its mean's shortfall from the best: the top of the curve,
	 * where it is near a parabola; far down the slopes it is not (a
	 * saturated node makes time per byte linear), and those points would
	 * drag the vertex. Windows of the 6, 8 or 12 nearest, hard cut-offs at
	 * 5% or 10%, and weights of 2%, 8% or 12% did worse in
	 * bench/scripts/tuner-quality.sh (more runs over 1%). */
	enum { NEAREST = 64 };
	const double frac = 0.85;
	int pick[NEAREST], np = 0, n = 0, rc = 0;
	struct line_pts *p;
	int top = best_on(s, ln);
	double ref = top >= 0 ? s->trials[top].mean : -INFINITY;

	for (int t = 0; t < s->ntrials; t++) {
		int j;

		if (s->trials[t].n == 0 || s->trials[t].mean < frac * ref || !on_line(s, ln, t))
			continue;
		if (np < NEAREST)
			pick[np++] = t;
		else {
			int far = 0;

			for (j = 1; j < np; j++)
				if (fabs(slow_share(s, ln, pick[j]) - around) >
				    fabs(slow_share(s, ln, pick[far]) - around))
					far = j;
			if (fabs(slow_share(s, ln, t) - around) <
			    fabs(slow_share(s, ln, pick[far]) - around))
				pick[far] = t;
		}
	}
	for (int j = 0; j < np; j++)
		n += s->trials[pick[j]].n;
	if (thin) {
		*thin = -1;
		for (int j = 0; j < np; j++) {
			const struct tt_trial *tr = &s->trials[pick[j]];

			if (tr->n < s->cfg.max_repeats &&
			    (*thin < 0 || tr->n < s->trials[*thin].n ||
			     (tr->n == s->trials[*thin].n &&
			      fabs(slow_share(s, ln, pick[j]) - around) <
				      fabs(slow_share(s, ln, *thin) - around))))
				*thin = pick[j];
		}
	}
	p = malloc(sizeof(*p) * (size_t)(n ? n : 1));
	if (!p)
		return tt_err(TT_EFAIL, "out of memory fitting the peak");
	n = 0;
	for (int j = 0; j < np; j++) {
		const struct tt_trial *tr = &s->trials[pick[j]];

		for (int m = 0; m < tr->n; m++) {
			p[n].x = slow_share(s, ln, pick[j]);
			p[n].wt = exp(-(1 - tr->mean / ref) / 0.05);
			p[n++].y = tr->score[m] > 0 ? ref / tr->score[m] : 1e9;
		}
	}
	qsort(p, (size_t)n, sizeof(*p), cmp_xy);
	{
		double sse;

		/* The mean of the parabola's vertex and the hinge's corner. A
		 * peak is lopsided where one side is latency-bound (flat) and
		 * the other a node saturating (steep, the Genoa pair): the
		 * symmetric parabola's vertex leans to the flat side, which
		 * took 5 of 300 runs of bench/scripts/tuner-quality.sh 1.0-1.8%
		 * off; on a smooth peak (Xeon Max's DDR and HBM) the two lines'
		 * corner leans the other way (the hinge alone: 39 runs over
		 * 1%). Between them, every 2-node run there came within 0.94%.
		 * One of them alone when the other finds none. */
		double cp = 0, ch = 0, sh;
		bool gp = parabola(p, n, &cp, &sse), gh = hinge(p, n, &ch, &sh);

		rc = gp || gh;
		*corner = gp && gh ? (cp + ch) / 2 : gp ? cp : ch;
	}
	free(p);
	return rc;
}

/* How the nodes other than the fast one share what it leaves: in proportion
 * to the cube of their bandwidths. A slow node costs latency on every line
 * it serves, so the optimum gives the slow ones less than their bandwidth's
 * share, down to none: on every model of bench/scripts/tuner-quality.sh the
 * best vector of the line so drawn (weights 0..32) is within 0.45% of the
 * grid's optimum (Xeon Max's 4 nodes from node 1), within 0.25% with
 * ONE_FROM below (the 8-node machine's 32:9:1, where 16:4:1 becomes 4:1);
 * in proportion to bandwidth, within 4.2% (the 8-node machine, whose far
 * socket's devices take a share they should not). */
#define REST_POWER 3.0

/* A slow node snapped to weight 1 takes 1/sum of the traffic however little
 * its share asks for: from half a unit up, double or near it, and the
 * score falls faster for a slow node's excess than for its lack (the
 * far-socket 5-node machine: 7:30:1, one unit of a CXL device, is 1.4%
 * below 7:29). So a line that is the whole search rounds a share up to
 * one unit only from 0.8 of one. In bench/scripts/tuner-quality.sh (100
 * seeds, runs over 1% at 60 and 3%, 5%, 10% noise; measured before the
 * surrogate's class term of s-fitted.c met one node alone): rounding from
 * 0.5, 67, 239, 568; from 0.8, 52, 194, 522; from 0.7, 51 at 3%; 0.9, 58;
 * 1.0, 62 (the 4-CXL machine's third device then never joins). A line the
 * surrogate follows keeps those units: its vectors are the fit's data, and
 * a node they never weigh is known to it by the profile alone (cut there
 * too, the worst run at 200 and 3% noise went from 2.3% to 5.3% off, the
 * 8-node machine's far devices weighted). */
#define ONE_FROM 0.8

/* Two nodes: every reduced vector of 0..max by the slow node's share. */
static void line_two(const struct tt_search *s, struct line *ln)
{
	const struct tt_search_cfg *c = &s->cfg;
	uint32_t max = c->max_weight, w[2];
	struct tt_grid g;
	int slow = c->nodes[0] == c->local_node ? 1 : c->nodes[1] == c->local_node ? 0 : 1;

	ln->fast = 1 - slow;
	ln->p = malloc(sizeof(*ln->p) * (size_t)(max + 1) * (max + 1));
	if (!ln->p)
		return;
	tt_grid_init(&g, 2, max);
	while (tt_grid_next(&g, w)) {
		struct point *pt = &ln->p[ln->n++];

		memset(pt->w, 0, sizeof(pt->w));
		pt->w[ln->fast] = w[0];
		pt->w[slow] = w[1];
		pt->x = (double)w[1] / (w[0] + w[1]);
	}
}

/* More nodes: the fast one (the highest prior bandwidth, the local node
 * on a tie) and each other node's part of the rest by REST_POWER, a node
 * without a figure taken as slow as the slowest. */
static void line_rest(const struct tt_search_cfg *c, struct line *ln, double *rest, double *sum)
{
	double known = INFINITY;
	int nn = c->nnodes;

	ln->fast = 0;
	for (int k = 1; k < nn; k++) {
		double a = c->prior_bw_bytes_s[k], b = c->prior_bw_bytes_s[ln->fast];

		if (a > b || (a == b && c->nodes[k] == c->local_node))
			ln->fast = k;
	}
	for (int k = 0; k < nn; k++)
		if (c->prior_bw_bytes_s[k] > 0 && c->prior_bw_bytes_s[k] < known)
			known = c->prior_bw_bytes_s[k];
	*sum = 0;
	for (int k = 0; k < nn; k++) {
		double b = c->prior_bw_bytes_s[k] > 0 ? c->prior_bw_bytes_s[k]
			   : isfinite(known)	      ? known
						      : 1;

		rest[k] = k == ln->fast ? 0 : pow(b / (isfinite(known) ? known : 1), REST_POWER);
		*sum += rest[k];
	}
}

/* More nodes: the points of the fast node's share 1 - x, snapped. */
static void line_more(const struct tt_search *s, struct line *ln, bool alone)
{
	const struct tt_search_cfg *c = &s->cfg;
	int nn = c->nnodes, steps = 64 * (int)c->max_weight;
	double rest[TT_SEARCH_MAX_NODES], sum;

	line_rest(c, ln, rest, &sum);
	ln->p = malloc(sizeof(*ln->p) * (size_t)(steps + 1));
	if (!ln->p)
		return;
	for (int i = 0; i <= steps; i++) {
		double x = (double)i / steps, y[TT_SEARCH_MAX_NODES], tot = 0;
		int cut = 0;
		struct point *pt = &ln->p[ln->n];

		for (int k = 0; k < nn; k++)
			y[k] = k == ln->fast ? 1 - x : x * rest[k] / sum;
		memset(pt->w, 0, sizeof(pt->w));
		tt_search_snap(s, y, pt->w);
		for (int k = 0; k < nn; k++)
			tot += pt->w[k];
		for (int k = 0; k < nn; k++)
			if (alone && k != ln->fast && pt->w[k] == 1 && y[k] * tot < ONE_FROM) {
				pt->w[k] = 0;
				cut++;
			}
		if (cut)
			tot = (tot - cut) / tt_weights_reduce_array(pt->w, nn);
		pt->x = (tot - pt->w[ln->fast]) / tot;
		if (ln->n == 0 || memcmp(pt->w, ln->p[ln->n - 1].w, sizeof(pt->w)) != 0)
			ln->n++;
	}
}

/* The line of the 1-D search. Two nodes: every reduced vector of 0..max,
 * ordered by the slow node's share (the fast one is the source's own, or
 * the first). More: the fast node (the highest prior bandwidth, the local
 * node on a tie) with share 1 - x, the rest x split by REST_POWER, each
 * point snapped to the weight space (alone: the whole search, ONE_FROM)
 * and each vector once. ln->p is NULL when out of memory. */
static void line_build(const struct tt_search *s, struct line *ln, bool alone)
{
	ln->n = 0;
	if (s->cfg.nnodes == 2)
		line_two(s, ln);
	else
		line_more(s, ln, alone);
	if (ln->p)
		qsort(ln->p, (size_t)ln->n, sizeof(*ln->p), cmp_point);
}

/* Golden section over the slow share until the bracket holds a handful
 * of vectors, or half the search budget is spent (the fit needs the
 * rest); *mid: the bracket's middle. */
static int golden(struct tt_search *s, const struct line *ln, double *mid)
{
	const double phi = (sqrt(5) - 1) / 2; /* 0.618 */
	double a = 0, b = 1, c = b - phi * (b - a), d = a + phi * (b - a);
	int ic = nearest(ln->p, ln->n, c), id = nearest(ln->p, ln->n, d), tc, td, rc;

	if ((tc = try_point(s, ln, ic)) < 0 || (td = try_point(s, ln, id)) < 0)
		return tc < 0 ? tc : td;
	while (!tt_search_stopped(s) && nearest(ln->p, ln->n, b) - nearest(ln->p, ln->n, a) > 4 &&
	       (s->search_limit == 0 ||
		s->measurements < s->search_limit / 2 + s->search_limit / 8)) {
		int better = ic == id ? 1 : tt_search_better(s, tc, td);

		if (better < 0)
			return better;
		if (better) {
			b = d;
			d = c;
			id = ic;
			td = tc;
			c = b - phi * (b - a);
			ic = nearest(ln->p, ln->n, c);
			tc = try_point(s, ln, ic);
		} else {
			a = c;
			c = d;
			ic = id;
			tc = td;
			d = a + phi * (b - a);
			id = nearest(ln->p, ln->n, d);
			td = try_point(s, ln, id);
		}
		if ((rc = tc < 0 ? tc : td < 0 ? td : 0) < 0)
			return rc;
	}
	*mid = (a + b) / 2;
	return 0;
}

/* Fit, try the corner, refit with it. Once the corner lands on a known
 * vector, the budget goes to more measurements of the trials the fit
 * uses, fewest first, until each has max_repeats: then no step is left
 * that the noise would not swallow. The last min_repeats measurements
 * stay for the final corner. */
static int refine(struct tt_search *s, const struct line *ln, double *around)
{
	for (int round = 0; round < 64 && !tt_search_stopped(s); round++) {
		double corner = *around;
		int thin, got = fit_near(s, ln, *around, &corner, &thin), t, rc;

		if (got < 0)
			return got;
		/* No peak in the data yet (too few points, or they curve the
		 * wrong way under the noise): more measurements near the best
		 * mean, then fit again. */
		if (!got) {
			int b = best_on(s, ln);

			if (b < 0)
				break;
			corner = slow_share(s, ln, b);
		}
		*around = corner;
		t = find_point(s, ln, nearest(ln->p, ln->n, corner));
		if (t < 0) {
			if ((t = try_point(s, ln, nearest(ln->p, ln->n, corner))) < 0)
				return t;
			continue;
		}
		if (thin < 0 ||
		    (s->search_limit && s->measurements + s->cfg.min_repeats >= s->search_limit))
			break;
		if ((rc = tt_search_more(s, thin)) < 0)
			return rc;
	}
	return 0;
}

/* The winner is the vector at the fitted peak (the pooled estimate), or
 * the measured one nearest to it, unless a trial beats it beyond the
 * noise, which would mean the fit has it wrong. */
static int settle(struct tt_search *s, const struct line *ln, double around)
{
	double corner = around;
	int got = fit_near(s, ln, around, &corner, NULL), cand, best, rc;

	if (got < 0)
		return got;
	if (got)
		around = corner;
	if ((cand = try_point(s, ln, nearest(ln->p, ln->n, around))) < 0)
		return cand;
	if (s->trials[cand].n == 0) {
		cand = -1;
		for (int t = 0; t < s->ntrials; t++)
			if (s->trials[t].n >= s->cfg.min_repeats &&
			    (cand < 0 || fabs(slow_share(s, ln, t) - around) <
						 fabs(slow_share(s, ln, cand) - around)))
				cand = t;
	}
	best = best_mean(s);
	if (cand >= 0 && best >= 0 && cand != best && (rc = tt_search_better(s, best, cand)) < 0)
		return rc;
	best = best_mean(s);
	if (cand >= 0 && (best < 0 || !(s->trials[best].ci_lo > s->trials[cand].ci_hi)))
		best = cand;
	s->best = best;
	return 0;
}

static int search_1d(struct tt_search *s, bool alone)
{
	struct line ln;
	int rc;
	double around = 0.5;

	line_build(s, &ln, alone);
	if (!ln.p)
		return tt_err(TT_EFAIL, "out of memory for the weight lattice");
	rc = golden(s, &ln, &around);
	if (rc == 0)
		rc = refine(s, &ln, &around);
	if (rc == 0)
		rc = settle(s, &ln, around);
	free(ln.p);
	return rc;
}

static void move(int n, const double *x, int kind, int i, int j, double dlt, double *y)
{
	double rest = 0, amt;

	for (int k = 0; k < n; k++)
		y[k] = x[k];
	switch (kind) {
	case 0: /* towards node j */
		for (int k = 0; k < n; k++)
			y[k] = (1 - dlt) * x[k] + (k == j ? dlt : 0);
		break;
	case 1: /* away from node j, the others scaled up */
		amt = x[j] < dlt ? x[j] : dlt;
		rest = 1 - x[j];
		if (!(rest > 0))
			break;
		for (int k = 0; k < n; k++)
			y[k] = k == j ? x[j] - amt : x[k] * (1 + amt / rest);
		break;
	default: /* from node i to node j */
		amt = x[i] < dlt ? x[i] : dlt;
		y[i] -= amt;
		y[j] += amt;
		break;
	}
}

/* The bowl's normal equations (p terms: 1, the first n - 1 shares, their
 * products) over every trial within 15% of the best, each weighted by its
 * measurements; the trials used. */
static int bowl_normal(const struct tt_search *s, int best, int p, double *ata, double *atb)
{
	int m = s->cfg.nnodes - 1, used = 0;

	for (int t = 0; t < s->ntrials; t++) {
		const struct tt_trial *tr = &s->trials[t];
		uint32_t w[TT_SEARCH_MAX_NODES];
		double x[TT_SEARCH_MAX_NODES], f[36], y;
		int k = 0;

		if (tr->n == 0 || tr->mean < 0.85 * s->trials[best].mean)
			continue;
		tt_search_trial_weights(s, t, w);
		tt_search_shares(s, w, x);
		f[k++] = 1;
		for (int i = 0; i < m; i++)
			f[k++] = x[i];
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++)
				f[k++] = x[i] * x[j];
		y = s->trials[best].mean / tr->mean;
		for (int i = 0; i < p; i++) {
			for (int j = 0; j < p; j++)
				ata[i * p + j] += tr->n * f[i] * f[j];
			atb[i] += tr->n * f[i] * y;
		}
		used++;
	}
	return used;
}

/* Cholesky: a bowl only if the m x m H is positive definite. */
static bool pos_definite(const double *h, int m)
{
	double l[7 * 7] = { 0 };

	for (int i = 0; i < m; i++)
		for (int j = 0; j <= i; j++) {
			double v = h[i * m + j];

			for (int k = 0; k < j; k++)
				v -= l[i * m + k] * l[j * m + k];
			if (i == j) {
				if (!(v > 0))
					return false;
				l[i * m + i] = sqrt(v);
			} else
				l[i * m + j] = v / l[j * m + j];
		}
	return true;
}

/* The n-node analogue of the 2-node parabola: a quadratic in the first
 * n - 1 shares, fitted to time per byte (ref / mean, weighted by each
 * trial's measurements) over every trial within 15% of the best, and its
 * minimum when the fit is a bowl (positive definite) inside the simplex. */
static bool bowl(const struct tt_search *s, double *share)
{
	enum { P = 36 };
	int n = s->cfg.nnodes, m = n - 1, p = 1 + m + m * (m + 1) / 2, used, best = best_mean(s);
	double ata[P * P] = { 0 }, atb[P] = { 0 }, c[P], h[7 * 7], g[7], z[7], sum = 0;

	if (best < 0 || n < 3)
		return false;
	used = bowl_normal(s, best, p, ata, atb);
	if (used < 2 * p || !tt_solve(ata, atb, p, c))
		return false;
	/* Gradient b + H z = 0, with H_ii = 2 c_ii and H_ij = c_ij. */
	for (int i = 0, k = 1 + m; i < m; i++)
		for (int j = i; j < m; j++, k++) {
			h[i * m + j] = (i == j ? 2 : 1) * c[k];
			h[j * m + i] = h[i * m + j];
		}
	if (!pos_definite(h, m))
		return false;
	for (int i = 0; i < m; i++)
		g[i] = -c[1 + i];
	if (!tt_solve(h, g, m, z))
		return false;
	/* A bottom outside the simplex is not trusted: clipping it onto a
	 * face did worse in the quality benchmark (4.9% worst on the 4-node
	 * Xeon Max set) than leaving the pattern search's winner alone. */
	for (int i = 0; i < m; i++) {
		if (!(z[i] >= -0.01) || !isfinite(z[i]))
			return false;
		z[i] = z[i] < 0 ? 0 : z[i];
		sum += z[i];
	}
	if (sum > 1.01)
		return false;
	for (int i = 0; i < m; i++)
		share[i] = sum > 1 ? z[i] / sum : z[i];
	share[m] = sum < 1 ? 1 - sum : 0;
	return true;
}

/* The winner's faces. A node that takes a weight of one or two in it costs
 * latency on every line it serves, so the optimum may lie on the face of
 * the simplex without it, where the score has a corner a quadratic bowl
 * cannot follow: its bottom lands a little inside. A share that small
 * moves the score by about the noise, so the winner and the vector without
 * the node are raced, many measurements each, and the higher mean wins. */
static int faces(struct tt_search *s)
{
	int n = s->cfg.nnodes, rc, reps = 16 * s->cfg.max_repeats;
	uint32_t w[TT_SEARCH_MAX_NODES], f[TT_SEARCH_MAX_NODES];

	for (int k = 0; k < n && !tt_search_stopped(s); k++) {
		double x[TT_SEARCH_MAX_NODES];
		int t, others = 0;

		tt_search_trial_weights(s, s->best, w);
		for (int j = 0; j < n; j++)
			others += j != k && w[j] > 0;
		if (w[k] == 0 || w[k] > 2 || !others)
			continue;
		tt_search_shares(s, w, x);
		x[k] = 0;
		tt_search_snap(s, x, f);
		if ((t = tt_search_try(s, f, s->cfg.min_repeats, TT_PHASE_SEARCH)) < 0)
			return t;
		while (!tt_search_stopped(s) &&
		       (s->trials[t].n < reps || s->trials[s->best].n < reps)) {
			rc = tt_search_more(s,
					    s->trials[t].n <= s->trials[s->best].n ? t : s->best);
			if (rc < 0)
				return rc;
		}
		if (s->trials[t].n > 0 && s->trials[t].mean > s->trials[s->best].mean)
			s->best = t;
	}
	return 0;
}

/* The pattern search from trial inc with first step dlt, moving only
 * shares of the nodes in use (all when NULL); its incumbent in *out. */
static int climb(struct tt_search *s, int inc, double dlt, const bool *use, int *out)
{
	int n = s->cfg.nnodes;
	double x[TT_SEARCH_MAX_NODES], dmin = 1.0 / (4.0 * s->cfg.max_weight);
	uint32_t w[TT_SEARCH_MAX_NODES];

	tt_search_trial_weights(s, inc, w);
	tt_search_shares(s, w, x);
	while (!tt_search_stopped(s) && dlt >= dmin) {
		bool moved = false;

		for (int kind = 0; kind < 3 && !moved; kind++)
			for (int i = 0; i < (kind == 2 ? n : 1) && !moved; i++)
				for (int j = 0; j < n && !moved && !tt_search_stopped(s); j++) {
					double y[TT_SEARCH_MAX_NODES];
					int t, better;

					if ((kind == 2 && i == j) ||
					    (use && (!use[j] || (kind == 2 && !use[i]))))
						continue;
					move(n, x, kind, i, j, dlt, y);
					tt_search_snap(s, y, w);
					if ((t = tt_search_try(s, w, s->cfg.min_repeats,
							       TT_PHASE_SEARCH)) < 0)
						return t;
					if (t == inc || s->trials[t].n == 0)
						continue;
					if ((better = tt_search_better(s, t, inc)) < 0)
						return better;
					if (better) {
						inc = t;
						memcpy(x, y, sizeof(x));
						moved = true;
					}
				}
		if (!moved)
			dlt /= 2;
	}
	*out = inc;
	return 0;
}

static int pattern(struct tt_search *s)
{
	int n = s->cfg.nnodes, inc = best_mean(s), rc;
	uint32_t w[TT_SEARCH_MAX_NODES];

	if (inc < 0)
		return 0;
	if ((rc = climb(s, inc, 0.25, NULL, &inc)) < 0)
		return rc;
	/* Race the leaders with what is left: more measurements for every
	 * trial whose interval overlaps the best's, up to 16 * max_repeats
	 * (a 1% difference at 3% noise needs about that many; at 4 *
	 * max_repeats runs 1.1-1.7% off were left in the quality benchmark).
	 * The budget caps it. */
	for (bool more = true; more && !tt_search_stopped(s);) {
		int best = best_mean(s);

		more = false;
		for (int t = 0; t < s->ntrials && !tt_search_stopped(s); t++) {
			const struct tt_trial *tr = &s->trials[t];

			if (tr->n < s->cfg.min_repeats || tr->n >= 16 * s->cfg.max_repeats ||
			    tr->ci_hi < s->trials[best].ci_lo)
				continue;
			if ((rc = tt_search_more(s, t)) < 0)
				return rc;
			more = true;
		}
	}
	/* Then the fitted bowl's bottom, refitted with each new vector until
	 * it lands on a known one: it wins unless a trial beats it beyond the
	 * noise, as for two nodes. */
	inc = -1;
	for (int round = 0; round < 16 && !tt_search_stopped(s); round++) {
		double y[TT_SEARCH_MAX_NODES];
		int t;

		if (!bowl(s, y))
			break;
		tt_search_snap(s, y, w);
		if ((t = tt_search_try(s, w, s->cfg.min_repeats, TT_PHASE_SEARCH)) < 0)
			return t;
		while (s->trials[t].n < s->cfg.max_repeats && !tt_search_stopped(s))
			if ((rc = tt_search_more(s, t)) < 0)
				return rc;
		if (t == inc)
			break;
		inc = t;
	}
	s->best = best_mean(s);
	if (inc >= 0 && s->trials[inc].n > 0 && !(s->trials[s->best].ci_lo > s->trials[inc].ci_hi))
		s->best = inc;
	inc = s->best;
	if ((rc = faces(s)) < 0)
		return rc;
	/* On a face, the shares of the nodes left are tuned again, from a
	 * small step: dropping a node moved them all. */
	if (s->best != inc) {
		bool use[TT_SEARCH_MAX_NODES];

		tt_search_trial_weights(s, s->best, w);
		for (int k = 0; k < n; k++)
			use[k] = w[k] > 0;
		if ((rc = climb(s, s->best, 1.0 / 16, use, &inc)) < 0)
			return rc;
		s->best = inc;
	}
	return 0;
}

/* The line's part of the search measurements when the surrogate follows. */
#define LINE_PART 0.7

static int run(struct tt_search *s)
{
	int n = s->cfg.nnodes, limit = s->search_limit, room = limit - s->measurements, rc;
	char why[sizeof(s->stop_reason)];

	/* The latency objective and bounds (a sampling search) are not of
	 * the surrogate's form, nor of the line's (a bound cuts it). */
	if (s->sample)
		return n == 2 ? search_1d(s, true) : pattern(s);
	/* Two nodes: the fitted surrogate (s-fitted.c) pools every
	 * measurement better than the golden section does. */
	if (n == 2)
		return tt_s_fitted.run(s);
	/* More: the line first, which alone comes within 1% of the optimum
	 * on 5 and 8 nodes at a real run's 60 measurements (1 of 80 runs over
	 * 1% in bench/scripts/tuner-quality.sh at 3% noise, where the pattern
	 * search left 22); then, when the measurements by then hold three for
	 * each of the surrogate's parameters (two a class and one: at most
	 * 2n + 1), the surrogate fitted to all of them takes the rest, off the
	 * line (the faces a node leaves, a slow node's own share, the local
	 * node alone when few threads make every slow line cost): at 200, 0 of
	 * 220 runs on 3+ nodes over 1%, where the line alone left 27 and the
	 * search before it 12. With fewer measurements the surrogate follows
	 * the noise: on 5 and 8 nodes at 60, 13 of 80 runs over 1% with it
	 * after the line. The line's part, 70%, did better there than 30%
	 * (41 of 300 runs over 1% at 60), 50% (23) or 80% (38). */
	if (limit && s->measurements + LINE_PART * room < 3 * (2 * n + 1))
		return search_1d(s, true);
	memcpy(why, s->stop_reason, sizeof(why));
	if (limit)
		s->search_limit = s->measurements + (int)(LINE_PART * room);
	if ((rc = search_1d(s, false)) < 0)
		return rc;
	/* The line's end is not the search's. */
	s->search_limit = limit;
	s->stopped = false;
	memcpy(s->stop_reason, why, sizeof(why));
	return tt_s_fitted.run(s);
}

const struct tt_strategy tt_s_shares = {
	.name = "shares",
	.summary = "the fitted surrogate (two nodes); golden section and a fitted peak on the "
		   "fast node's share against the rest split by bandwidth, then the surrogate "
		   "(more); a pattern search for latency",
	.run = run,
};
