"""``clinrag serve``: the web page, the HTTP API and clinrag's own MCP server over the same graph as the CLI.

- ``clinrag.server.app``: ``create_app()``, the ASGI app (page at ``/``, API at ``/api``, MCP at ``/mcp``)
- ``clinrag.server.api``: the endpoints and their JSON shapes (documented there)
- ``clinrag.server.mcp_server``: the ``clinrag_evidence_map`` MCP tool (stdio: ``clinrag mcp``)
- ``clinrag.server.service``: validation (``MAX_QUESTION_CHARS``) and the runs behind both
"""
