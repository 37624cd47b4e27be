/* test-prompt-queue.c: the order of a queue of prompts, and when it waits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-prompt-queue.h"

/* The texts of the entries, joined by "|" */
static char *
texts (PalPromptQueue *queue)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (queue)); i++)
    {
      g_autoptr(PalPrompt) prompt = g_list_model_get_item (G_LIST_MODEL (queue), i);

      if (i > 0)
        g_string_append_c (out, '|');
      g_string_append (out, pal_prompt_get_text (prompt));
    }

  return g_string_free (out, FALSE);
}

#define assert_queue(queue, expected) \
  G_STMT_START { \
    g_autofree char *got_ = texts (queue); \
    g_assert_cmpstr (got_, ==, expected); \
  } G_STMT_END

static void
add (PalPromptQueue *queue,
     const char     *text)
{
  g_autoptr(PalPrompt) prompt = pal_prompt_new (text);

  pal_prompt_queue_add (queue, prompt);
}

/* The text of what the queue gives to send, or NULL */
static char *
text_of (PalPrompt *prompt)
{
  char *text = prompt != NULL ? g_strdup (pal_prompt_get_text (prompt)) : NULL;

  g_clear_object (&prompt);
  return text;
}

static void
test_order (void)
{
  g_autoptr(PalPromptQueue) queue = pal_prompt_queue_new ();
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *none = NULL;

  add (queue, "a");
  add (queue, "b");
  add (queue, "c");
  assert_queue (queue, "a|b|c");

  pal_prompt_queue_move (queue, 2, 0);
  assert_queue (queue, "c|a|b");
  pal_prompt_queue_move (queue, 0, 1);
  assert_queue (queue, "a|c|b");
  pal_prompt_queue_remove (queue, 1);
  assert_queue (queue, "a|b");

  /* one at the end of each turn, first in first out */
  first = text_of (pal_prompt_queue_turn_ended (queue, NULL));
  g_assert_cmpstr (first, ==, "a");
  second = text_of (pal_prompt_queue_turn_ended (queue, NULL));
  g_assert_cmpstr (second, ==, "b");
  none = text_of (pal_prompt_queue_turn_ended (queue, NULL));
  g_assert_null (none);
  g_assert_null (pal_prompt_queue_get_waiting_reason (queue));
}

static void
test_waits_after_failure (void)
{
  g_autoptr(PalPromptQueue) queue = pal_prompt_queue_new ();
  g_autofree char *held = NULL;
  g_autofree char *next = NULL;

  /* an empty queue has nothing to wait with */
  g_assert_null (pal_prompt_queue_turn_ended (queue, "The agent refused to continue."));
  g_assert_null (pal_prompt_queue_get_waiting_reason (queue));

  add (queue, "a");
  add (queue, "b");
  held = text_of (pal_prompt_queue_turn_ended (queue, "The agent refused to continue."));
  g_assert_null (held);
  g_assert_cmpstr (pal_prompt_queue_get_waiting_reason (queue), ==, "The agent refused to continue.");
  assert_queue (queue, "a|b");

  /* a turn that ends well meanwhile (the person wrote one) does not undo it */
  g_assert_null (pal_prompt_queue_turn_ended (queue, NULL));
  g_assert_null (pal_prompt_queue_next (queue));

  pal_prompt_queue_go_on (queue);
  g_assert_null (pal_prompt_queue_get_waiting_reason (queue));
  next = text_of (pal_prompt_queue_next (queue));
  g_assert_cmpstr (next, ==, "a");

  /* emptied, it waits no more */
  pal_prompt_queue_wait (queue, "Stopped");
  pal_prompt_queue_remove (queue, 0);
  g_assert_null (pal_prompt_queue_get_waiting_reason (queue));
}

static void
test_send_now (void)
{
  g_autoptr(PalPromptQueue) queue = pal_prompt_queue_new ();
  g_autofree char *now = NULL;
  g_autofree char *later = NULL;
  g_autofree char *after_wait = NULL;

  add (queue, "a");
  add (queue, "b");
  add (queue, "c");
  pal_prompt_queue_send_now (queue, 2);
  assert_queue (queue, "c|a|b");
  g_assert_true (pal_prompt_queue_get_sending_now (queue));

  /* the turn stopped for it ends "cancelled": it goes, the queue does not wait */
  now = text_of (pal_prompt_queue_turn_ended (queue, "The turn was stopped."));
  g_assert_cmpstr (now, ==, "c");
  g_assert_false (pal_prompt_queue_get_sending_now (queue));
  g_assert_null (pal_prompt_queue_get_waiting_reason (queue));
  later = text_of (pal_prompt_queue_turn_ended (queue, NULL));
  g_assert_cmpstr (later, ==, "a");

  /* a waiting queue sends the one asked for, and waits on */
  add (queue, "d");
  pal_prompt_queue_wait (queue, "Failed");
  pal_prompt_queue_send_now (queue, 1);
  after_wait = text_of (pal_prompt_queue_next (queue));
  g_assert_cmpstr (after_wait, ==, "d");
  g_assert_cmpstr (pal_prompt_queue_get_waiting_reason (queue), ==, "Failed");
  g_assert_null (pal_prompt_queue_next (queue));
  assert_queue (queue, "b");
}

static void
test_edit (void)
{
  g_autoptr(PalPromptQueue) queue = pal_prompt_queue_new ();
  g_autoptr(PalPrompt) edited = NULL;
  g_autoptr(PalPrompt) again = NULL;
  g_autofree char *first = NULL;

  add (queue, "a");
  add (queue, "b");
  add (queue, "c");
  edited = pal_prompt_queue_take_for_edit (queue, 1);
  g_assert_cmpstr (pal_prompt_get_text (edited), ==, "b");
  g_assert_true (pal_prompt_queue_get_editing (queue));
  assert_queue (queue, "a|c");

  /* the queue waits for it meanwhile */
  g_assert_null (pal_prompt_queue_turn_ended (queue, NULL));

  /* back, edited, at its place */
  add (queue, "b2");
  assert_queue (queue, "a|b2|c");
  g_assert_false (pal_prompt_queue_get_editing (queue));
  first = text_of (pal_prompt_queue_next (queue));
  g_assert_cmpstr (first, ==, "a");

  /* given up: the queue goes on, and it comes back at the end */
  again = pal_prompt_queue_take_for_edit (queue, 0);
  pal_prompt_queue_go_on (queue);
  g_assert_false (pal_prompt_queue_get_editing (queue));
  add (queue, "b3");
  assert_queue (queue, "c|b3");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/prompt-queue/order", test_order);
  g_test_add_func ("/prompt-queue/waits-after-failure", test_waits_after_failure);
  g_test_add_func ("/prompt-queue/send-now", test_send_now);
  g_test_add_func ("/prompt-queue/edit", test_edit);

  return g_test_run ();
}
