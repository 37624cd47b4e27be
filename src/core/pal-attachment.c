/* pal-attachment.c: a file, folder or image given with a prompt
 *
 * An attachment names what the person gave; a file's contents are read
 * only when the prompt is sent (pal_prompt_build_blocks_async()), an
 * image's data is held, already scaled to what is sent.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "pal-attachment.h"

struct _PalAttachment
{
  GObject            parent_instance;

  PalAttachmentKind  kind;
  GFile             *file;
  char              *name;
  GBytes            *data;
  char              *mime_type;
  int                width;
  int                height;
};

G_DEFINE_FINAL_TYPE (PalAttachment, pal_attachment, G_TYPE_OBJECT)

static void
pal_attachment_finalize (GObject *object)
{
  PalAttachment *self = PAL_ATTACHMENT (object);

  g_clear_object (&self->file);
  g_free (self->name);
  g_clear_pointer (&self->data, g_bytes_unref);
  g_free (self->mime_type);

  G_OBJECT_CLASS (pal_attachment_parent_class)->finalize (object);
}

static void
pal_attachment_class_init (PalAttachmentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = pal_attachment_finalize;
}

static void
pal_attachment_init (PalAttachment *self)
{
}

/* The name shown: the base name as the person reads it */
static char *
display_name (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  if (basename == NULL)
    return g_file_get_uri (file);

  return g_filename_display_name (basename);
}

static PalAttachment *
new_for_file (PalAttachmentKind  kind,
              GFile             *file)
{
  PalAttachment *self = g_object_new (PAL_TYPE_ATTACHMENT, NULL);

  self->kind = kind;
  self->file = g_object_ref (file);
  self->name = display_name (file);

  return self;
}

/**
 * pal_attachment_new_file:
 * @file: a file
 *
 * Returns: (transfer full): an attachment of @file, read when sent
 */
PalAttachment *
pal_attachment_new_file (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return new_for_file (PAL_ATTACHMENT_FILE, file);
}

/**
 * pal_attachment_new_folder:
 * @folder: a folder
 *
 * Returns: (transfer full): an attachment of @folder, sent as a link
 */
PalAttachment *
pal_attachment_new_folder (GFile *folder)
{
  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  return new_for_file (PAL_ATTACHMENT_FOLDER, folder);
}

/**
 * pal_attachment_new_image:
 * @data: the encoded image, as sent
 * @mime_type: its type ("image/png")
 * @width: its width in pixels
 * @height: its height in pixels
 * @source: (nullable): the file it came from; %NULL for pasted data
 *
 * Returns: (transfer full): an attachment of the image
 */
PalAttachment *
pal_attachment_new_image (GBytes     *data,
                          const char *mime_type,
                          int         width,
                          int         height,
                          GFile      *source)
{
  PalAttachment *self;

  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (mime_type != NULL, NULL);
  g_return_val_if_fail (source == NULL || G_IS_FILE (source), NULL);

  self = g_object_new (PAL_TYPE_ATTACHMENT, NULL);
  self->kind = PAL_ATTACHMENT_IMAGE;
  self->data = g_bytes_ref (data);
  self->mime_type = g_strdup (mime_type);
  self->width = MAX (width, 0);
  self->height = MAX (height, 0);
  if (source != NULL)
    {
      self->file = g_object_ref (source);
      self->name = display_name (source);
    }
  else
    {
      /* Translators: the name of an image pasted into a prompt */
      self->name = g_strdup (_("Image"));
    }

  return self;
}

PalAttachmentKind
pal_attachment_get_kind (PalAttachment *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT (self), PAL_ATTACHMENT_FILE);

  return self->kind;
}

GFile *
pal_attachment_get_file (PalAttachment *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT (self), NULL);

  return self->file;
}

const char *
pal_attachment_get_name (PalAttachment *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT (self), NULL);

  return self->name;
}

GBytes *
pal_attachment_get_data (PalAttachment *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT (self), NULL);

  return self->data;
}

const char *
pal_attachment_get_mime_type (PalAttachment *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT (self), NULL);

  return self->mime_type;
}

int
pal_attachment_get_width (PalAttachment *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT (self), 0);

  return self->width;
}

int
pal_attachment_get_height (PalAttachment *self)
{
  g_return_val_if_fail (PAL_IS_ATTACHMENT (self), 0);

  return self->height;
}
