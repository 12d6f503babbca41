"""Play by email: a turn email's Reply-To is play+TOKEN@domain, and the reply's first line is the move
(docs/email-moves.md)."""
