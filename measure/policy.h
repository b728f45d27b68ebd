/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A trial under written weights: the candidate's node weights written to
 * sysfs through the apply transaction (writer/apply.h: lock, journal, write,
 * read back), the trial run under the kernel's own MPOL_WEIGHTED_INTERLEAVE,
 * and the old weights put back after it, whatever happened. Kernel-policy
 * bench trials and app-mode trials (app.h) both run this way.
 *
 *	struct tt_policy pol = {.sfs = &sfs, .topo = &t, .state_dir = dir};
 *	tt_policy_catch_signals();                 (SIGINT, SIGTERM: a flag)
 *	if (tt_policy_check(&pol) < 0) ...          (root, the files writable)
 *	rc = tt_policy_trial(&pol, &w, run, ctx, &out);
 *	if (out.discarded) ... say out.why, measure again ...
 *	if (tt_policy_signal()) ... exit 128 + signal ...
 *
 * Weights can change under a running trial (another admin, the kernel's auto
 * mode at hotplug): the weights are read back just before and just after the
 * trial, and a trial whose weights moved is discarded (out.discarded, with
 * what moved in out.why), its figure not to be used. A signal does not stop
 * the trial itself (its handler only sets a flag); the caller sees it after
 * the weights are back. A tiertune killed outright leaves the journal, which
 * the next tiertune puts back (tt_apply_recover_leftover).
 *
 * Only an interface of global node weights (upstream's): a trial sets MPOL_WEIGHTED_INTERLEAVE,
 * which reads those weights (the RFC's tier weights have no policy of their
 * own to set).
 */
#ifndef TT_POLICY_H
#define TT_POLICY_H

#include "../core/sysfs.h"

#include <signal.h>
#include "../core/topo.h"
#include "../core/weights.h"

#include <stdbool.h>

struct tt_policy {
	const struct tt_sysfs *sfs;
	const struct tt_topo *topo;
	const char *state_dir; /* the apply lock and journal */
	int trials;	       /* trials run (discarded ones included) */
	int discarded;	       /* trials whose weights moved */
};

struct tt_policy_outcome {
	bool discarded; /* the weights moved during the trial: do not use it */
	char why[256];	/* what moved: "node 1 went from 5 to 7" */
	int restored;	/* values put back after the trial */
	int run_rc;	/* the trial's own status */
};

/* The weights can be written here: the upstream interface exists, its
 * files can be opened for writing (root), and writing them would not lose
 * the kernel's auto mode for good. TT_EUNAVAIL saying which is missing. */
int tt_policy_check(const struct tt_policy *pol, const struct tt_weights *w);
/* Writes w (1-255 for each node in w->set; nodes outside it are not
 * written), calls run(ctx), and puts the old weights back. Returns run's
 * status, or the transaction's when writing or putting back failed (then
 * the message says where the old values are). */
int tt_policy_trial(struct tt_policy *pol, const struct tt_weights *w, int (*run)(void *ctx),
		    void *ctx, struct tt_policy_outcome *out);

/* The search's measure callback (search.h) for trials under written
 * weights: each measurement is inner's, inside tt_policy_trial. A discarded
 * one is said through discarded() and measured again, up to max_discards
 * times in a row (then TT_EFAIL: the weights keep changing). A caught
 * signal stops the search once the weights are back (TT_EFAIL saying so;
 * tt_policy_signal() gives it). */
struct tt_policy_measure {
	struct tt_policy *pol;
	int (*inner)(void *ctx, const struct tt_weights *w, double *score);
	void *inner_ctx;
	int max_discards; /* 0: 3 */
	void (*discarded)(void *ctx, const struct tt_weights *w, const char *why);
	void *discarded_ctx;
};
int tt_policy_measure(void *ctx, const struct tt_weights *w, double *score);

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT set a flag instead of killing the process (without
 * SA_RESTART, so a wait for a program returns EINTR). */
void tt_policy_catch_signals(void);
/* The signal caught, or 0. */
int tt_policy_signal(void);
/* The flag itself, for a bench run to stop between its passes
 * (tt_bench_opts.stop). */
const volatile sig_atomic_t *tt_policy_stop_flag(void);

#endif
