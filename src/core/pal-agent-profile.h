/* pal-agent-profile.h: how to start one ACP agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PAL_TYPE_AGENT_PROFILE (pal_agent_profile_get_type ())

G_DECLARE_FINAL_TYPE (PalAgentProfile, pal_agent_profile, PAL, AGENT_PROFILE, GObject)

PalAgentProfile    *pal_agent_profile_new          (const char         *id,
                                                    const char         *name,
                                                    const char         *command,
                                                    const char * const *args);
/* A new, unowned profile with the same settings (is-preset and is-demo too). */
PalAgentProfile    *pal_agent_profile_copy         (PalAgentProfile    *self);

const char         *pal_agent_profile_get_id       (PalAgentProfile    *self);
const char         *pal_agent_profile_get_name     (PalAgentProfile    *self);
void                pal_agent_profile_set_name     (PalAgentProfile    *self,
                                                    const char         *name);
const char         *pal_agent_profile_get_command  (PalAgentProfile    *self);
void                pal_agent_profile_set_command  (PalAgentProfile    *self,
                                                    const char         *command);
/* Never NULL. */
const char * const *pal_agent_profile_get_args     (PalAgentProfile    *self);
void                pal_agent_profile_set_args     (PalAgentProfile    *self,
                                                    const char * const *args);
/* Extra environment variables, in order, each "NAME=VALUE". Never NULL. */
const char * const *pal_agent_profile_get_env      (PalAgentProfile    *self);
void                pal_agent_profile_set_env      (PalAgentProfile    *self,
                                                    const char * const *env);
/* Names of the variables whose values the keyring keeps. Never NULL. */
const char * const *pal_agent_profile_get_secrets  (PalAgentProfile    *self);
void                pal_agent_profile_set_secrets  (PalAgentProfile    *self,
                                                    const char * const *secrets);
gboolean            pal_agent_profile_has_secret   (PalAgentProfile    *self,
                                                    const char         *name);
gboolean            pal_agent_profile_get_is_preset (PalAgentProfile   *self);
gboolean            pal_agent_profile_get_is_demo  (PalAgentProfile    *self);

/* command followed by args (transfer full). */
char              **pal_agent_profile_dup_argv     (PalAgentProfile    *self);
/* @envp with the profile's variables set on top (transfer full). */
char              **pal_agent_profile_apply_env    (PalAgentProfile    *self,
                                                    char              **envp);
/* Checks that name and command are not empty, that every env entry has
 * the form NAME=VALUE with a valid name, and that no variable is both in env
 * and in secrets. PAL_ERROR_INVALID otherwise. */
gboolean            pal_agent_profile_validate     (PalAgentProfile    *self,
                                                    GError            **error);

G_END_DECLS
