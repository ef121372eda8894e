"""The engine: what a certification runs (:mod:`.plan`), how each run is judged (:mod:`.judge`),
how the plan is executed on all cores within a time budget (:mod:`.execute`) and what the
evidence says afterwards (:mod:`.evidence`)."""
