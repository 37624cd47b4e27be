/* lsan-glib.c: GLib's start-up allocations, kept in LeakSanitizer's sight
 *
 * GLib allocates its first block of quarks in its constructor and drops it,
 * unfreed and pointed to by nothing, once a process has more than 2048
 * quarks (so that looking a quark up needs no lock): GTK alone nearly has
 * that many. LeakSanitizer reports the block, and no suppression can tell
 * it from a leak of ours, since GLib has no frame pointers: the stack of
 * the allocation ends at g_malloc() (the slow unwinder would go further, at
 * a cost the whole sanitizer pass would pay).
 *
 * This constructor runs right after GLib's, before main(): it copies GLib's
 * writable data as it is then into a global of the test program, which
 * LeakSanitizer scans. What GLib pointed to at that moment (its start-up
 * allocations, nothing of ours) stays reachable; everything later is
 * checked as before. Linked into the test programs of sanitizer builds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE
#include <link.h>
#include <string.h>

/* GLib 2.74's writable segment is 8 KiB */
static unsigned char glib_data_at_start[64 * 1024];
static size_t glib_data_used;

static int
copy_glib_data_cb (struct dl_phdr_info *info,
                   size_t               size,
                   void                *data)
{
  if (strstr (info->dlpi_name, "/libglib-2.0.so") == NULL)
    return 0;

  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
      size_t length = segment->p_memsz;

      if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W) == 0)
        continue;
      if (length > sizeof glib_data_at_start - glib_data_used)
        length = sizeof glib_data_at_start - glib_data_used;
      memcpy (glib_data_at_start + glib_data_used,
              (const void *) (info->dlpi_addr + segment->p_vaddr), length);
      glib_data_used += length;
    }

  return 1;
}

__attribute__((constructor)) static void
keep_glib_start_up_allocations (void)
{
  dl_iterate_phdr (copy_glib_data_cb, NULL);
}
