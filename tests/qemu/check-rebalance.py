# SPDX-License-Identifier: GPL-3.0-or-later
# Run by check.py (in its names) after its own checks: guest-rebalance.sh's
# blocks, read by check_rebalance.py, kept a module of its own so that its
# helpers do not take check.py's names.
import check_rebalance  # noqa: E402 (beside this file)

check_rebalance.check(block, jblock, tap)  # noqa: F821 (check.py's)
check_rebalance.check_exiting(block, jblock, tap)  # noqa: F821
check_rebalance.check_hugetlb(block, jblock, tap)  # noqa: F821
check_rebalance.check_full_node(block, jblock, tap)  # noqa: F821
check_rebalance.check_granularity(block, jblock, tap)  # noqa: F821
check_rebalance.check_cpuset(block, jblock, tap)  # noqa: F821
