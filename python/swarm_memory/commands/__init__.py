"""The commands of `swarm-memory`, one module a family; each module's add_commands registers
its commands' parsers, each beside its handler (swarm_memory.cli calls them in turn).

    setup     db, migrate, demo
    tenancy   tenant, tenants, simulations, role, quota, audit
    imports   import, attempts, remember, export
    reads     nodes, neighbors, facts, paths, profiles, episodes, stats, warm
    time      history, evidence, timeline
    recall    recall, route, words
    search    search, embed, index
    reports   reports, search-reports, predictions, predict, outcome
    feed      changes, health, sweep
    models    models, reembed
    citus     distribute
    service   serve, key
"""
