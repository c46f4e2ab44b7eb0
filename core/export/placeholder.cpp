// Replaced by the export work; keeps the target buildable meanwhile.
