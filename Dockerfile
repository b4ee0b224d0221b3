FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends git make && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY scanner scanner
COPY portal portal
RUN pip install --no-cache-dir . gunicorn==23.0.0
COPY . .
ENV DJANGO_SETTINGS_MODULE=portal.settings
CMD ["gunicorn", "portal.wsgi:application", "--bind", "0.0.0.0:8000"]
