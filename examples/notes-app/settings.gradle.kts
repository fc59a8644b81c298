rootProject.name = "notes-app"
include(":app")
