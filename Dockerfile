FROM python:3.11-slim
# WITH_HIPCC=1 (the worker's image, docker-compose.yml): the compile check's toolchains, which build the HIP
# translation for an AMD GPU target with no GPU: clang-19, lld-19 and clang-tools-19 (the default, with the ROCm headers the scanner
# ships) and Debian's hipcc with its HIP headers (the alternative); about 1.5 GB, the web image does without. clang-22
# (HIP 7.14's headers, for profiles of ROCm 7.13 and later) where the image's Debian has it; without it those profiles
# are judged with HIP 7.2's headers and each result says so.
ARG WITH_HIPCC=0
RUN apt-get update && apt-get install -y --no-install-recommends git make \
    && if [ "$WITH_HIPCC" = "1" ]; then apt-get install -y --no-install-recommends clang-19 lld-19 clang-tools-19 \
        hipcc libamdhip64-dev \
        && (apt-get install -y --no-install-recommends clang-22 lld-22 clang-tools-22 \
            || echo "clang-22 is not in this Debian: ROCm 7.13+ profiles will be judged with HIP 7.2's headers"); fi \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY scanner scanner
COPY portal portal
RUN pip install --no-cache-dir . gunicorn==23.0.0
COPY . .
ENV DJANGO_SETTINGS_MODULE=portal.settings
CMD ["gunicorn", "portal.wsgi:application", "--bind", "0.0.0.0:8000"]
