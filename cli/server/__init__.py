"""`attn serve`: the HTTP server (optional extra `attn[serve]`: Starlette and uvicorn)."""
