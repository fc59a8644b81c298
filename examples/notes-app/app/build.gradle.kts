plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
}

android {
    namespace = "org.loopgates.notes"
    compileSdk = 35
    defaultConfig {
        applicationId = "org.loopgates.notes"
        minSdk = 24
        targetSdk = 35
        versionCode = 3
        versionName = "1.2.0"
    }
    buildFeatures { compose = true }
}
