/* wait-for.h: the earlier spelling of WAIT_UNTIL (see test-util.h), kept for
 * the tests that still use it; new code uses test-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "test-util.h"

/* Iterates the main loop until @cond (@data) holds; fails the test after the
 * guard of test-util.h. */
#define wait_for(cond, data) WAIT_UNTIL ((cond) (data))
