"""Public models installed by name (`attn models install`): where they come from (sources.py), the
resumable verified download (download.py), and conversion into the user's models folder (installer.py)."""
