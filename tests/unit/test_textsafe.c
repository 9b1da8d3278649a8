/* SPDX-License-Identifier: MIT */
/* Unit tests of the text mode of the output streams
 * (launcher/unprivileged/textsafe.c): what a terminal would act on comes
 * out visibly escaped, printable UTF-8 passes as it is, a character cut
 * between two reads is put back together, and nothing grows past the
 * bound the courier's buffer counts on. */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "textsafe.h"

#include <string.h>

static char out[4096];

static const char *esc(struct ward_textsafe *t, const char *in, size_t n,
		       int last)
{
	size_t k =
	    ward_text_escape(t, (const uint8_t *)in, n, (uint8_t *)out, last);

	assert_true(k <= WARD_TEXT_GROWTH * (n + 3));
	out[k] = '\0';
	return out;
}

static void terminal_sequences(void **state)
{
	struct ward_textsafe t = {0};
	/* the seeds' viewer attack: title, clipboard write, clear screen */
	const char osc[] = "\x1b]0;title\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J";

	assert_string_equal(esc(&t, osc, sizeof(osc) - 1, 1),
			    "\\x1b]0;title\\x07\\x1b]52;c;ZXZpbA==\\x07"
			    "\\x1b[2J");
	assert_null(strchr(out, 0x1b));
	assert_int_equal(t.escaped, 5);
	/* CR (overwrites a line), DEL, and C1 CSI (U+009B) */
	t = (struct ward_textsafe){0};
	assert_string_equal(esc(&t, "a\rb\x7f\xc2\x9b", 6, 1),
			    "a\\x0db\\x7f\\u{9b}");
	assert_int_equal(t.escaped, 4);
}

static void text_passes(void **state)
{
	struct ward_textsafe t = {0};
	const char text[] = "total: 42\tok\nnaïve café 日本 🙂\n";

	assert_string_equal(esc(&t, text, sizeof(text) - 1, 1), text);
	assert_int_equal(t.escaped, 0);
}

static void bidi_and_invalid(void **state)
{
	struct ward_textsafe t = {0};

	/* RIGHT-TO-LEFT OVERRIDE reorders what a reviewer reads */
	assert_string_equal(esc(&t, "x\xe2\x80\xaey", 5, 1), "x\\u{202e}y");
	/* an invalid byte, an overlong form, a surrogate */
	t = (struct ward_textsafe){0};
	assert_string_equal(esc(&t, "\xff\xc0\xaf\xed\xa0\x80", 6, 1),
			    "\\xff\\xc0\\xaf\\xed\\xa0\\x80");
	assert_int_equal(t.escaped, 6);
}

static void split_characters(void **state)
{
	struct ward_textsafe t = {0};
	const char smile[] = "\xf0\x9f\x99\x82"; /* U+1F642 */

	/* cut after each byte: held back, then whole */
	assert_string_equal(esc(&t, smile, 1, 0), "");
	assert_string_equal(esc(&t, smile + 1, 2, 0), "");
	assert_string_equal(esc(&t, smile + 3, 1, 0), smile);
	assert_int_equal(t.escaped, 0);
	/* a cut character at the end of the stream is escaped */
	t = (struct ward_textsafe){0};
	assert_string_equal(esc(&t, "ok\xe6\x97", 4, 0), "ok");
	assert_string_equal(esc(&t, NULL, 0, 1), "\\xe6\\x97");
	/* an ESC split from its sequence is escaped all the same */
	t = (struct ward_textsafe){0};
	assert_string_equal(esc(&t, "\x1b", 1, 0), "\\x1b");
	assert_string_equal(esc(&t, "[2J", 3, 1), "[2J");
}

static void worst_growth(void **state)
{
	struct ward_textsafe t = {0};
	static char in[1024];

	memset(in, 0x01, sizeof(in));
	esc(&t, in, sizeof(in) / 4, 1);
	assert_int_equal(strlen(out), 4 * sizeof(in) / 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(terminal_sequences),
	    cmocka_unit_test(text_passes),
	    cmocka_unit_test(bidi_and_invalid),
	    cmocka_unit_test(split_characters),
	    cmocka_unit_test(worst_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
