"""The ways into the engine: the platform's framed protocol, the getpoint line protocol, and
the get_point() function. Each only translates its format into engine calls."""
