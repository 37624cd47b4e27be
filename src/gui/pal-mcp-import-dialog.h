/* pal-mcp-import-dialog.h: import MCP servers from another client's JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "pal-mcp-server-store.h"

G_BEGIN_DECLS

#define PAL_TYPE_MCP_IMPORT_DIALOG (pal_mcp_import_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PalMcpImportDialog, pal_mcp_import_dialog, PAL, MCP_IMPORT_DIALOG, AdwWindow)

PalMcpImportDialog *pal_mcp_import_dialog_new        (PalMcpServerStore  *store);
void                pal_mcp_import_dialog_set_text   (PalMcpImportDialog *self,
                                                      const char         *text);
/* Reads @file without blocking and shows its text; "loading" while it reads. */
void                pal_mcp_import_dialog_load_file  (PalMcpImportDialog *self,
                                                      GFile              *file);
gboolean            pal_mcp_import_dialog_get_loading (PalMcpImportDialog *self);
/* How many servers the text holds, or 0 with the reason in @error. */
guint               pal_mcp_import_dialog_get_n_found (PalMcpImportDialog *self);
const char         *pal_mcp_import_dialog_get_problem (PalMcpImportDialog *self);
/* How many servers of the text could not be read (named in the status). */
guint               pal_mcp_import_dialog_get_n_failed (PalMcpImportDialog *self);
/* Adds the servers of the text to the store, but those it has already,
 * renaming those whose name is taken; what the Import button does before
 * it closes the dialog. */
guint               pal_mcp_import_dialog_import     (PalMcpImportDialog *self,
                                                      GError            **error);

G_END_DECLS
