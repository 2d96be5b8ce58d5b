"""Small helpers shared by the apps (text, client address, login throttling); imports no app."""
