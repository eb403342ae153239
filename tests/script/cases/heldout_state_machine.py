class InvalidTransition(Exception):
    pass


class StateMachine:
    transitions = {
        "idle": {"start": "running"},
        "running": {"pause": "paused", "stop": "stopped", "fail": "error"},
        "paused": {"resume": "running", "stop": "stopped"},
        "error": {"reset": "idle"},
        "stopped": {},
    }

    def __init__(self, name):
        self.name = name
        self.state = "idle"
        self.history = []
        self._hooks = {}

    def on(self, state):
        def register(fn):
            self._hooks.setdefault(state, []).append(fn)
            return fn
        return register

    def __getattr__(self, event):
        if event.startswith("_"):
            raise AttributeError(event)
        if any(event in t for t in self.transitions.values()):
            def fire(**info):
                return self._fire(event, info)
            return fire
        if event.startswith("is_"):
            return self.state == event[3:]
        raise AttributeError(f"{type(self).__name__!r} has no event or attribute {event!r}")

    def _fire(self, event, info):
        allowed = self.transitions[self.state]
        if event not in allowed:
            raise InvalidTransition(f"cannot {event} while {self.state}")
        old, self.state = self.state, allowed[event]
        self.history.append((old, event, self.state))
        for hook in self._hooks.get(self.state, []):
            hook(self, **info)
        return self

    def __repr__(self):
        return f"<{self.name}: {self.state}>"


m = StateMachine("job")


@m.on("error")
def report(machine, reason="?"):
    print(f"  hook: {machine.name} failed because {reason}")


print(m, m.is_idle, m.is_running)
m.start().pause().resume()
print(m, m.is_running)
m.fail(reason="disk full")
try:
    m.resume()
except InvalidTransition as e:
    print("InvalidTransition:", e)
m.reset()
print(m, len(m.history))
for old, ev, new in m.history:
    print(f"{old:>8} --{ev}--> {new}")
try:
    m.explode()
except AttributeError as e:
    print("AttributeError:", e)
print(hasattr(m, "start"), hasattr(m, "fly"), getattr(m, "is_stopped"))
