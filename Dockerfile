FROM python:3.11-slim
# WITH_HIPCC=1 (the worker's image, docker-compose.yml): Debian's hipcc and HIP headers for the compile check,
# which builds the HIP translation for an AMD GPU target with no GPU (about 1 GB; the web image does without).
ARG WITH_HIPCC=0
RUN apt-get update && apt-get install -y --no-install-recommends git make \
    && if [ "$WITH_HIPCC" = "1" ]; then apt-get install -y --no-install-recommends hipcc libamdhip64-dev; fi \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY scanner scanner
COPY portal portal
RUN pip install --no-cache-dir . gunicorn==23.0.0
COPY . .
ENV DJANGO_SETTINGS_MODULE=portal.settings
CMD ["gunicorn", "portal.wsgi:application", "--bind", "0.0.0.0:8000"]
