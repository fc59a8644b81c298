package org.loopgates.notes

import android.content.Context

data class Note(val id: Long, val title: String, val body: String, val editedAt: Long)

class NotesRepository(private val context: Context) {
    private val prefs = context.getSharedPreferences("notes", Context.MODE_PRIVATE)

    fun all(): List<Note> =
        prefs.all.keys.sorted().mapNotNull { key -> load(key) }

    private fun load(key: String): Note? {
        val raw = prefs.getString(key, null) ?: return null
        val parts = raw.split('\u001f')
        if (parts.size < 3) return null
        return Note(key.toLong(), parts[0], parts[1], parts[2].toLong())
    }
}
