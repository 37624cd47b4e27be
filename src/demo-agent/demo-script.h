/* demo-script.h: the demo agent's canned turns and canned session state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  DEMO_STEP_UPDATE,     /* send one session/update */
  DEMO_STEP_TEXT,       /* stream a text as message or thought chunks */
  DEMO_STEP_PERMISSION, /* ask with session/request_permission, then branch */
} DemoStepKind;

typedef struct _DemoStep DemoStep;

struct _DemoStep
{
  DemoStepKind kind;
  guint        delay_ms;        /* pause before the step, at speed 1 */

  /* DEMO_STEP_UPDATE */
  JsonNode    *update;

  /* DEMO_STEP_TEXT */
  char        *chunk_kind;      /* "agent_message_chunk" or "agent_thought_chunk" */
  char        *message_id;
  GPtrArray   *chunks;          /* (element-type utf8) concatenated they give the text */
  guint        next_chunk;
  guint        chunk_delay_ms;  /* pause between two ticks, at speed 1 */
  guint        chunks_per_tick;

  /* DEMO_STEP_PERMISSION */
  char        *tool_call_id;
  JsonNode    *tool_call;       /* the ToolCallUpdate sent with the request */
  GPtrArray   *if_allowed;      /* (element-type DemoStep) */
  GPtrArray   *if_rejected;     /* (element-type DemoStep) */
};

void      demo_step_free (DemoStep *step);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DemoStep, demo_step_free)

/* What a turn may depend on. */
typedef struct
{
  const char *cwd;
  JsonArray  *mcp_servers;          /* as the client sent them (nullable) */
  const char *mode_id;              /* "ask" or "code" */
  const char *model_id;
  guint       turn_number;          /* 1 for the first turn of the session */
  const char *title;                /* non-NULL: announce this session title */
  const char *updated_at;           /* ISO 8601, for the session_info_update */
  gboolean    edits_always_allowed; /* the person chose "Always allow" before */
  gboolean    plan_updates;         /* the client shows plan_update (clientCapabilities.plan) */
} DemoTurnContext;

/* The permission options offered for an edit. */
#define DEMO_OPTION_ALLOW_ONCE   "allow_once"
#define DEMO_OPTION_ALLOW_ALWAYS "allow_always"
#define DEMO_OPTION_REJECT_ONCE  "reject_once"

/* Builds the steps of one turn (element-type DemoStep). prompt is the
 * ContentBlock array of session/prompt (already checked to be objects). */
GPtrArray  *demo_script_build_turn          (JsonArray             *prompt,
                                             const DemoTurnContext *context);

/* The text of a prompt: its text blocks joined, resources named. */
char       *demo_script_prompt_text         (JsonArray   *prompt);
/* A session title from the first words of a prompt. */
char       *demo_script_make_title          (const char  *prompt_text);

JsonNode   *demo_script_modes               (const char  *current_mode_id);
gboolean    demo_script_is_mode             (const char  *mode_id);
JsonNode   *demo_script_config_options      (const char  *mode_id,
                                             const char  *model_id);
gboolean    demo_script_is_model            (const char  *model_id);
const char *demo_script_default_mode        (void);
const char *demo_script_default_model       (void);
JsonNode   *demo_script_permission_options  (void);
/* The available_commands_update. */
JsonNode   *demo_script_commands_update     (void);

G_END_DECLS
