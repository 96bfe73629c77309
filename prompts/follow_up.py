"""Prompt that condenses a chat follow-up and the earlier turns into one standalone question.

It carries the user's own questions only, never corpus text or answers, so it has no evidence block (the prompts
that carry corpus text delimit it as data: :mod:`clinrag.prompts`).
"""

CONDENSE_SYSTEM = """You rewrite the latest message of a conversation about published clinical guidance as ONE \
standalone question that can be searched without the conversation. Rules:
1. Carry over from the earlier questions whatever the latest message leaves implicit: the topic, the \
population, the organization and the date or period.
2. Keep everything the latest message states; what it changes (e.g. another organization, population or year) \
replaces the earlier value.
3. If the latest message is already a standalone question, return it unchanged.
4. Do not answer, explain or add facts. Reply with the question only, on one line."""

CONDENSE_USER = """Earlier questions, oldest first:
{history}

Latest message: {follow_up}

Standalone question:"""
