// SPDX-License-Identifier: GPL-3.0-or-later
/* The curses screen: the only file of tiertune that includes curses.h. It
 * draws frames (frame.h) and reads keys; collecting stays on the sampler's
 * and the scanner's threads.
 *
 * The terminal is always given back: on q, on an error (before its message
 * is printed), on SIGINT, SIGTERM and SIGHUP (a flag the loop sees within
 * 100 ms, then endwin), and on a crash or any other signal whose default
 * action ends the process (SIGQUIT, a timer's), where only async-signal-safe
 * calls are allowed: the terminal modes saved at start go back with
 * tcsetattr, the alternate screen and the cursor with write(), then the
 * signal is raised again with its default action. */
#include "tui.h"

#include "../core/error.h"
#include "../core/parse.h"

#include <curses.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t quit_signal;
static struct termios saved_tio;
static bool have_tio, curses_on;

/* rmcup (leave the alternate screen), cnorm (cursor back), sgr0. */
static const char restore_seq[] = "\033[?1049l\033[?25h\033[0m\r\n";

static void on_quit(int sig)
{
	quit_signal = sig;
}

static void on_crash(int sig)
{
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	if (write(STDOUT_FILENO, restore_seq, sizeof(restore_seq) - 1) < 0) {
		/* nothing more can be done in a signal handler */
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void end_screen(void)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
}

static void handlers(void)
{
	/* Every other signal whose default action ends the process: Ctrl-\
	 * (SIGQUIT) is a key away, and a timer, a CPU limit or a stray kill
	 * ends tiertop as surely as a crash. Their default action still
	 * follows (a core for SIGQUIT), once the terminal is back. */
	static const int crash[] = { SIGSEGV, SIGBUS,  SIGFPE,	SIGILL,	   SIGABRT,
				     SIGQUIT, SIGTRAP, SIGSYS,	SIGXCPU,   SIGXFSZ,
				     SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(crash) / sizeof(*crash); i++)
		sigaction(crash[i], &sa, NULL);
}

/* The frame's lines, kept to be laid out: the footer (style 3, the n/a
 * reasons) always gets room at the bottom, the body is cut above it. */
struct draw {
	int n;
	int style[256];
	char text[256][256];
};

static void keep_line(void *ctx, int style, const char *line)
{
	struct draw *d = ctx;

	if (d->n < 256) {
		d->style[d->n] = style;
		snprintf(d->text[d->n++], sizeof(d->text[0]), "%s", line);
	}
}

static void put(int y, int style, const char *line)
{
	int attr = style == 1 ? A_BOLD : style == 2 ? A_DIM : 0;

	if (attr)
		attron(attr);
	mvaddnstr(y, 0, line, COLS);
	if (attr)
		attroff(attr);
}

static void layout(const struct draw *d, int rows, bool help)
{
	int nfoot = 0, y = 0, all = 0, shown = 0, nbody = 0, body = 0, room, hidden;
	char more[96];

	for (int i = 0; i < d->n; i++)
		all += d->style[i] == 3;
	/* A quarter of the screen at most: the rows come first. */
	nfoot = all > rows / 4 ? rows / 4 : all;
	/* A body cut short says so on its last line: a processes panel
	 * that ends at the bottom edge would look like all there is. */
	room = rows - nfoot;
	for (int i = 0; i < d->n; i++)
		if (d->style[i] != 3 && d->text[i][0])
			nbody = i + 1;
	for (int i = 0; i < nbody; i++)
		body += d->style[i] != 3;
	hidden = body > room && room > 0 ? body - (room - 1) : 0;
	for (int i = 0; i < nbody && y < room - (hidden ? 1 : 0); i++)
		if (d->style[i] != 3)
			put(y++, d->style[i], d->text[i]);
	if (hidden) {
		snprintf(more, sizeof(more), "... %d more line%s: a taller terminal%s shows %s",
			 hidden, hidden == 1 ? "" : "s", help ? "" : ", or 't' (tier view),",
			 hidden == 1 ? "it" : "them");
		put(y++, 2, more);
	}
	y = rows - nfoot;
	for (int i = 0; i < d->n && y < rows; i++) {
		if (d->style[i] != 3)
			continue;
		if (nfoot < all && y == rows - 1) {
			snprintf(more, sizeof(more),
				 "(%d more lines of reasons: tiertop --once shows them all)",
				 all - shown);
			put(y++, 3, more);
			break;
		}
		put(y++, 3, d->text[i]);
		shown++;
	}
}

/* The help screen: a heading, the key table, what a cell's word means. */
static const char *const help_foot[] = {
	"",
	"Cells: n/a = no source here (the footer says why), init = first sample,",
	"stale = the source stopped answering. SIMULATED figures are not measured.",
};

static void draw(struct tt_top *top, bool help, bool procs)
{
	static struct draw d;
	struct tt_frame f;
	struct tt_render_opts ro = {
		.width = COLS, .processes = procs, .no_message = true, .no_demotion = procs
	};
	const char *bar = top->message[0] ? top->message
					  : "q quit h help s source t view P procs +- delay "
					    "p pause w weight u undo r reread";
	int brk[3] = { 0, 0, 0 };

	erase();
	d.n = 0;
	if (help) {
		keep_line(&d, 1, "tiertop keys");
		keep_line(&d, 0, "");
		tt_keys_help(keep_line, &d);
		for (size_t i = 0; i < sizeof(help_foot) / sizeof(*help_foot); i++)
			keep_line(&d, 0, help_foot[i]);
	} else if (tt_top_frame(top, &f) == 0) {
		tt_frame_lines(&f, &ro, keep_line, &d);
		tt_frame_release(&f);
	} else {
		keep_line(&d, 0, tt_err_msg());
	}
	/* A message longer than the bar (why a write was refused ends with
	 * the reason: "...: Permission denied") takes up to three lines,
	 * broken between words, rather than losing its end. */
	int len = (int)strlen(bar), nbar = 1;

	for (int at = 0, k = 0; top->message[0] && COLS > 0 && at < len && k < 3; k++) {
		int n = len - at > COLS ? COLS : len - at, m = n;

		while (at + m < len && m > COLS / 2 && bar[at + m] != ' ')
			m--;
		if (at + m < len && bar[at + m] == ' ')
			n = m;
		brk[k] = at + n;
		nbar = k + 1;
		at += n;
		while (at < len && bar[at] == ' ')
			at++;
	}
	nbar = nbar < LINES - 1 ? nbar : 1;
	layout(&d, LINES - nbar, help);
	attron(A_REVERSE);
	for (int k = 0, at = 0; k < nbar; k++) {
		int y = LINES - nbar + k;

		mvhline(y, 0, ' ', COLS);
		while (at < len && bar[at] == ' ' && k)
			at++;
		mvaddnstr(y, 0, bar + at, k == nbar - 1 ? COLS : brk[k] - at);
		at = brk[k];
	}
	attroff(A_REVERSE);
	refresh();
}

/* A line typed at the bottom; false when cancelled (Escape, empty). */
static bool prompt(const char *question, char *buf, int size)
{
	int len = 0, ch;

	buf[0] = '\0';
	curs_set(1);
	timeout(-1);
	for (;;) {
		attron(A_REVERSE);
		mvhline(LINES - 1, 0, ' ', COLS);
		mvprintw(LINES - 1, 0, "%s%s", question, buf);
		attroff(A_REVERSE);
		refresh();
		ch = getch();
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			break;
		if (ch == 27 || quit_signal) {
			len = 0;
			break;
		}
		if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0)
			buf[--len] = '\0';
		else if (ch >= 32 && ch < 127 && len < size - 1) {
			buf[len++] = (char)ch;
			buf[len] = '\0';
		}
	}
	curs_set(0);
	timeout(100);
	buf[len] = '\0';
	return len > 0;
}

static const double intervals[] = { 0.5, 1, 2, 5, 10, 30 };

static void change_interval(struct tt_top *top, int dir)
{
	int i, n = (int)(sizeof(intervals) / sizeof(*intervals));
	double next = -1;

	/* The next step in the key's direction: -d takes 0.1 to 3600 s,
	 * beyond the steps, and from there '-' must not lengthen the
	 * interval nor '+' shorten it. */
	for (i = 0; i < n; i++) {
		if (dir > 0 && intervals[i] > top->interval_s + 1e-9) {
			next = intervals[i];
			break;
		}
		if (dir < 0 && intervals[i] < top->interval_s - 1e-9)
			next = intervals[i];
	}
	if (next < 0) {
		snprintf(top->message, sizeof(top->message),
			 "interval stays %.1f s ('-' steps down to %.1f s, '+' up to %.0f s)",
			 top->interval_s, intervals[0], intervals[n - 1]);
		return;
	}
	top->interval_s = next;
	if (tt_top_restart(top) < 0)
		snprintf(top->message, sizeof(top->message), "%s", tt_err_msg());
	else
		snprintf(top->message, sizeof(top->message), "interval %.1f s", top->interval_s);
}

/* What a key acts on: the screen's state between frames. */
struct tt_screen {
	struct tt_top *top;
	bool help, procs, dirty;
	bool exit; /* leave with rc, the screen already ended */
	int rc;
};

static void key_quit(struct tt_screen *s)
{
	(void)s;
	quit_signal = -1;
}

static void key_help(struct tt_screen *s)
{
	s->help = true;
}

static void key_source(struct tt_screen *s)
{
	tt_top_next_source(s->top);
}

static void key_view(struct tt_screen *s)
{
	s->top->view = s->top->view == TT_VIEW_NODES ? TT_VIEW_TIERS : TT_VIEW_NODES;
}

static void key_procs(struct tt_screen *s)
{
	s->procs = !s->procs;
	if (s->top->scanner)
		tt_scanner_set_idle(s->top->scanner, !s->procs);
	if (s->procs && s->top->scanner)
		tt_scanner_kick(s->top->scanner);
}

static void key_sort(struct tt_screen *s)
{
	s->top->sort = (s->top->sort + 1) % 3;
}

static void key_faster(struct tt_screen *s)
{
	change_interval(s->top, 1);
}

static void key_slower(struct tt_screen *s)
{
	change_interval(s->top, -1);
}

static void key_pause(struct tt_screen *s)
{
	s->top->paused = !s->top->paused;
}

static void key_write(struct tt_screen *s)
{
	struct tt_top *top = s->top;
	char q[96], in[64], safe[160];

	snprintf(q, sizeof(q),
		 "%s:weight to write (Esc cancels): ", top->be ? top->be->unit : "node");
	if (prompt(q, in, sizeof(in)) && tt_top_write_weight(top, in) < 0)
		snprintf(top->message, sizeof(top->message), "not written: %s",
			 tt_str_escape(tt_err_msg(), safe, sizeof(safe)));
}

static void key_undo(struct tt_screen *s)
{
	if (tt_top_undo(s->top) < 0)
		snprintf(s->top->message, sizeof(s->top->message), "nothing undone: %s",
			 tt_err_msg());
}

static void key_reread(struct tt_screen *s)
{
	struct tt_top *top = s->top;
	char safe[160];
	bool kept;

	if (tt_top_reread(top, &kept) == 0) {
		snprintf(top->message, sizeof(top->message), "topology and weights re-read");
	} else if (kept) {
		snprintf(top->message, sizeof(top->message),
			 "not re-read (what was read before stays): %s",
			 tt_str_escape(tt_err_msg(), safe, sizeof(safe)));
	} else {
		s->rc = tt_err_exit_code(TT_EFAIL);
		s->exit = true;
		end_screen();
		fprintf(stderr, "tiertop: error: re-reading the topology: %s\n", tt_err_msg());
	}
}

/* tiertop's keys: dispatch, the help screen, usage() and the man page's
 * KEYS (t0012 checks it against --help) all come from here. */
const struct tt_key tt_keys[] = {
	{ "q", "q", "q quit", "quit", key_quit },
	{ "h?", "h ?", "h/? help", "this help (any key closes it)", key_help },
	{ "s", "s", "s source node", "next source node (the shares the weights imply are for it)",
	  key_source },
	{ "t", "t", "t node/tier view", "node view / tier view (subtotals only)", key_view },
	{ "P", "P", "P processes", "processes panel (processes using interleave, from numa_maps)",
	  key_procs },
	{ "o", "o", "o sort processes",
	  "sort the processes: pages, skew (share against weights), pid", key_sort },
	{ "+=", "+ -", "+/- interval", "refresh interval up / down", key_faster },
	{ "-", NULL, NULL, NULL, key_slower },
	{ "p", "p", "p pause", "pause / resume", key_pause },
	{ "w", "w", "w write a weight",
	  "write a weight: node:weight (RFC: tier:weight for the source node),\n"
	  "checked as 'tiertune apply' checks it and written through its\n"
	  "transaction and journal; root only on a live system",
	  key_write },
	{ "u", "u", "u undo it", "undo the last write ('tiertune restore --last')", key_undo },
	{ "r", "r", "r re-read the topology", "re-read topology and weights (after hotplug)",
	  key_reread },
	{ 0 },
};

const struct tt_key *tt_key_find(int ch)
{
	for (const struct tt_key *k = tt_keys; k->keys; k++)
		if (ch > 0 && ch < 256 && strchr(k->keys, ch))
			return k;
	return NULL;
}

void tt_keys_help(void (*fn)(void *ctx, int style, const char *line), void *ctx)
{
	char buf[160];

	for (const struct tt_key *k = tt_keys; k->keys; k++) {
		const char *h = k->help;

		for (bool first = true; h && *h; first = false) {
			int n = (int)strcspn(h, "\n");

			snprintf(buf, sizeof(buf), "  %-8s %.*s", first ? k->label : "", n, h);
			fn(ctx, 0, buf);
			h += n + (h[n] == '\n');
		}
	}
}

void tt_keys_usage(FILE *f)
{
	int col = fprintf(f, "keys:");

	for (const struct tt_key *k = tt_keys; k->keys; k++) {
		if (!k->brief)
			continue;
		if (col + 2 + (int)strlen(k->brief) > 79)
			col = fprintf(f, ",\n     ") - 2;
		else if (col > 5)
			col += fprintf(f, ",");
		col += fprintf(f, " %s", k->brief);
	}
	fprintf(f, "\n");
}

int tt_screen_run(struct tt_top *top)
{
	struct tt_screen sc = { .top = top, .dirty = true };
	uint64_t drawn_tick = UINT64_MAX;
	time_t drawn_at = 0;

	setlocale(LC_ALL, "");
	if (tcgetattr(STDIN_FILENO, &saved_tio) == 0)
		have_tio = true;
	handlers();
	/* newterm, not initscr: initscr prints its own message and exits on
	 * an unknown TERM, past this error and its hint. */
	if (!newterm(NULL, stdout, stdin)) {
		char safe[160];

		fprintf(stderr,
			"tiertop: error: cannot start the screen on terminal type '%s' (TERM)\n"
			"hint: a TERM this system knows (infocmp lists it), or --once, --batch "
			"or --json\n",
			tt_str_escape(getenv("TERM") ? getenv("TERM") : "", safe, sizeof(safe)));
		return 1;
	}
	curses_on = true;
	atexit(end_screen);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	/* Esc cancels the weight prompt: ncurses waits a whole second by
	 * default for the rest of an escape sequence; a terminal sends one
	 * within milliseconds (an ESCDELAY in the environment still wins). */
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	curs_set(0);
	timeout(100);
	if (top->scanner)
		tt_scanner_set_idle(top->scanner, true);
	while (!quit_signal) {
		const struct tt_key *k;
		int ch;

		if (!top->paused)
			tt_top_take(top);
		/* A new sample, a key, or (with no collector to tick) the
		 * clock in the header. */
		if (top->feed.ticks != drawn_tick || sc.dirty ||
		    (!top->paused && time(NULL) - drawn_at >= (time_t)ceil(top->interval_s))) {
			draw(top, sc.help, sc.procs);
			drawn_tick = top->feed.ticks;
			drawn_at = time(NULL);
			sc.dirty = false;
		}
		ch = getch();
		if (ch == ERR)
			continue;
		sc.dirty = true;
		/* Any key closes the help, but a resize is not a key. */
		if (sc.help) {
			sc.help = ch == KEY_RESIZE;
			continue;
		}
		top->message[0] = '\0';
		k = tt_key_find(ch);
		if (k)
			k->act(&sc);
		else if (ch != KEY_RESIZE)
			sc.dirty = false;
		if (sc.exit)
			return sc.rc;
	}
	end_screen();
	/* Killed: the status a shell expects of a process the signal ended. */
	return quit_signal > 0 ? 128 + quit_signal : sc.rc;
}
