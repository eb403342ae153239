class Config:
    size = 4
    area = size * size
    bad = size / 0
