class Resource:
    def close(self):
        raise OSError("close failed")
def use():
    r = Resource()
    try:
        raise ValueError("work failed")
    finally:
        r.close()
use()
