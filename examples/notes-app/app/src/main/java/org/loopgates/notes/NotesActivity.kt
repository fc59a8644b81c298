package org.loopgates.notes

import android.os.Bundle
import android.widget.Toast
import androidx.activity.ComponentActivity
import androidx.activity.compose.setContent
import androidx.compose.foundation.layout.Column
import androidx.compose.material3.FloatingActionButton
import androidx.compose.material3.Icon
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.ui.res.pluralStringResource
import androidx.compose.ui.res.stringResource
import androidx.compose.ui.semantics.contentDescription
import androidx.compose.ui.semantics.semantics

class NotesActivity : ComponentActivity() {
    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        setContent { NotesScreen(notes = NotesRepository(this).all()) }
    }

    fun onSaved(title: String) {
        Toast.makeText(this, getString(R.string.note_saved, title), Toast.LENGTH_SHORT).show()
    }
}

@Composable
fun NotesScreen(notes: List<Note>) {
    Column {
        Text(pluralStringResource(R.plurals.notes_count, notes.size, notes.size))
        if (notes.isEmpty()) {
            Text(stringResource(R.string.notes_empty))
        }
        val newNote = stringResource(R.string.action_new_note)
        FloatingActionButton(
            onClick = {},
            modifier = androidx.compose.ui.Modifier.semantics { contentDescription = newNote },
        ) {
            Icon(painter = addIcon(), contentDescription = null)
        }
    }
}
