/* pal-prompt.c: what the person sends in one turn
 *
 * A prompt is what the composer hands over and what waits while a session
 * opens, is given back when it could not go out, or is kept as a draft. It
 * becomes the ContentBlock array of session/prompt only when sent, for the
 * capabilities of the agent that gets it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "pal-prompt.h"

struct _PalPrompt
{
  GObject  parent_instance;

  char    *text;
};

G_DEFINE_FINAL_TYPE (PalPrompt, pal_prompt, G_TYPE_OBJECT)

static void
pal_prompt_finalize (GObject *object)
{
  PalPrompt *self = PAL_PROMPT (object);

  g_free (self->text);

  G_OBJECT_CLASS (pal_prompt_parent_class)->finalize (object);
}

static void
pal_prompt_class_init (PalPromptClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pal_prompt_finalize;
}

static void
pal_prompt_init (PalPrompt *self)
{
}

/**
 * pal_prompt_new:
 * @text: what was written
 *
 * Returns: (transfer full): a prompt of @text
 */
PalPrompt *
pal_prompt_new (const char *text)
{
  PalPrompt *self;

  g_return_val_if_fail (text != NULL, NULL);

  self = g_object_new (PAL_TYPE_PROMPT, NULL);
  self->text = g_strdup (text);

  return self;
}

const char *
pal_prompt_get_text (PalPrompt *self)
{
  g_return_val_if_fail (PAL_IS_PROMPT (self), NULL);

  return self->text;
}

/**
 * pal_prompt_to_blocks:
 * @self: a #PalPrompt
 * @caps: the capabilities of the agent it goes to
 *
 * Returns: (transfer full): the prompt of session/prompt, ContentBlock
 *   objects: its text, then what is attached, in the forms @caps allow
 */
JsonArray *
pal_prompt_to_blocks (PalPrompt            *self,
                      AcpAgentCapabilities  caps)
{
  JsonArray *blocks;
  JsonObject *block;

  g_return_val_if_fail (PAL_IS_PROMPT (self), NULL);

  blocks = json_array_new ();
  block = json_object_new ();
  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", self->text);
  json_array_add_object_element (blocks, block);

  return blocks;
}
