// Replaced by the session work; keeps the target buildable meanwhile.
