"""Whether a run was right, and what follows a fault: judging each run against the expected answer,
confirming a fault, running it plainly, shrinking it (:mod:`.judge`); passes re-run plainly at
random and the bound they give (:mod:`.audit`); what a plan's run came to
(:mod:`.outcome`) and what the evidence says afterwards: the report's and the certificate's
content, the minimality line (:mod:`.evidence`); a C or C++ candidate's sanitizer builds on the
inputs that matter, undefined behaviour as a finding (:mod:`.sanitize`).

May import: the plan room (what a chunk and a phase are), the run and report rooms, the kit,
the engine's floor; never the executor, the certification or a command.
"""
