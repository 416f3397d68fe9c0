"""Audio at the table: speech models, recognition, microphone, spoken replies.

Nothing here knows the game or Spanish grammar; heavy modules (vosk,
sounddevice, pyttsx3) are imported only when used.
"""
