import { useState, type FormEvent } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { DocumentType } from '../../../api/generated/kyc.gen';
import { useUploadKycMutation } from '../../../api/kyc';
import { filters, useForm } from '../../../components/form/useForm';
import { ImagePicker } from '../../../components/ImagePicker';
import { formatDateTime } from '../../../lib/format';
import { AADHAR_DIGITS_MAX, DOCUMENT_NUMBER_MAX } from '../../../shared/kyc';
import {
  MSG,
  acceptsUpload,
  documentErrors,
  isAadhar,
  isPhotoType,
  type DocumentFiles,
  uploadStatus,
} from '../kycRules';
import { ConfirmSaveModal } from './ConfirmSaveModal';
import { HistoryModal } from './HistoryModal';
import { StatusBadge } from '../../../components/StatusBadge';
import { useT } from '../../../i18n/i18n';

type FileErrors = Partial<Record<'front' | 'back', string>>;

/** One document type: its upload form, or 'Already uploaded' while the latest one stands. */
export function DocumentSection({ type, eventKey }: { type: DocumentType; eventKey: string }) {
  const t = useT();
  const latest = type.uploads.data[0];
  const open = acceptsUpload(type.uploads.data);
  const photo = isPhotoType(type.document_type);
  const [historyShown, setHistoryShown] = useState(false);

  return (
    <Accordion.Item eventKey={eventKey} className="kyc-section">
      <Accordion.Header>
        <span className="kyc-section__title">{type.document_type}</span>
        {latest?.status === 2 && latest.remarks ? (
          <span className="kyc-section__hint">{latest.remarks}</span>
        ) : null}
        {latest ? (
          <StatusBadge status={latest.status} names={uploadStatus(t)} />
        ) : (
          <span className="kyc-section__hint">{t('kyc.notUploaded')}</span>
        )}
      </Accordion.Header>
      <Accordion.Body>
        {latest?.status === 2 ? (
          <Alert variant="danger" className="py-2">
            <strong>{t('kycStatus.rejected')}</strong>
            {latest.remarks ? `: ${latest.remarks}` : null}
          </Alert>
        ) : null}
        {open ? (
          <UploadForm type={type} photo={photo} />
        ) : latest ? (
          <div className="kyc-uploaded">
            <p className="kyc-uploaded__title">{MSG.alreadyUploaded}</p>
            <dl className="kyc-uploaded__facts">
              <dt>{t('kyc.document')}</dt>
              <dd>{latest.document_name}</dd>
              {latest.document_number ? (
                <>
                  <dt>{t('kyc.number')}</dt>
                  <dd className="font-monospace">{latest.document_number}</dd>
                </>
              ) : null}
              <dt>{t('kyc.uploaded')}</dt>
              <dd>{formatDateTime(latest.created_at)}</dd>
              <dt>{t('wallet.status')}</dt>
              <dd>
                <StatusBadge status={latest.status} names={uploadStatus(t)} />
              </dd>
            </dl>
          </div>
        ) : null}
        {type.uploads.data.length > 0 ? (
          <>
            <Button
              variant="link"
              className="px-0 mt-2"
              onClick={() => setHistoryShown(true)}
              aria-label={t('kyc.viewHistoryOf', { type: type.document_type })}
            >
              {t('kyc.viewHistory')}
            </Button>
            <HistoryModal type={type} show={historyShown} onHide={() => setHistoryShown(false)} />
          </>
        ) : null}
      </Accordion.Body>
    </Accordion.Item>
  );
}

function UploadForm({ type, photo }: { type: DocumentType; photo: boolean }) {
  const t = useT();
  const idBase = `kyc-${type.id}`;
  const [documentName, setDocumentName] = useState(
    type.data.length === 1 ? (type.data[0] ?? '') : '',
  );
  const aadhar = isAadhar(documentName);
  const form = useForm(
    { document_name: documentName, document_number: '' },
    {
      filters: aadhar ? { document_number: filters.digits } : {},
      maxLength: { document_number: aadhar ? AADHAR_DIGITS_MAX : DOCUMENT_NUMBER_MAX },
    },
  );
  const [files, setFiles] = useState<DocumentFiles>({ front: null, back: null });
  const [fileErrors, setFileErrors] = useState<FileErrors>({});
  const [confirming, setConfirming] = useState(false);
  const [uploadKyc, { isLoading }] = useUploadKycMutation();
  const values = { ...form.values, document_name: documentName };

  const chooseName = (name: string) => {
    setDocumentName(name);
    form.setField('document_name', name);
    // The number rules depend on the document (Aadhar: digits only): start it again.
    form.setField('document_number', '');
  };
  const setFile = (side: 'front' | 'back', file: File | null) => {
    setFiles((current) => ({ ...current, [side]: file }));
    setFileErrors((current) => ({ ...current, [side]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { front, back, ...fieldErrors } = documentErrors(type, values, files);
    form.setErrors(fieldErrors);
    setFileErrors({ front, back });
    if (!front && !back && Object.keys(fieldErrors).length === 0) setConfirming(true);
  };

  const save = async () => {
    try {
      await uploadKyc({
        uploadKycRequest: {
          // The contract takes the type's name lower-cased ('Photo' -> 'photo').
          document_type: type.document_type.toLowerCase(),
          document_name: documentName,
          ...(photo ? {} : { document_number: values.document_number.trim() }),
          ...(files.front ? { front: files.front } : {}),
          ...(files.back ? { back: files.back } : {}),
        },
      }).unwrap();
    } catch (error) {
      form.applyServerErrors(error);
      const fieldErrors = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors ?? {};
      setFileErrors({ front: fieldErrors.front?.[0], back: fieldErrors.back?.[0] });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Form
      noValidate
      onSubmit={submit}
      aria-label={t('kyc.uploadForm', { type: type.document_type })}
    >
      <div className="row g-3">
        <Form.Group className="col-12 col-md-6" controlId={`${idBase}-name`}>
          <Form.Label>{t('kyc.documentName')}</Form.Label>
          <Form.Select
            value={documentName}
            isInvalid={Boolean(form.errors.document_name)}
            onChange={(event) => chooseName(event.target.value)}
          >
            <option value="">{t('kyc.selectDocument')}</option>
            {type.data.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Form.Select>
          <Form.Control.Feedback type="invalid">{form.errors.document_name}</Form.Control.Feedback>
        </Form.Group>
        {photo ? null : (
          <Form.Group className="col-12 col-md-6" controlId={`${idBase}-number`}>
            <Form.Label>{t('kyc.documentNumber')}</Form.Label>
            <Form.Control
              {...form.bind('document_number')}
              inputMode={aadhar ? 'numeric' : undefined}
              autoComplete="off"
            />
            <Form.Control.Feedback type="invalid">
              {form.errors.document_number}
            </Form.Control.Feedback>
          </Form.Group>
        )}
        <div className="col-12 col-md-6">
          <ImagePicker
            id={`${idBase}-front`}
            label={photo ? t('kyc.photo') : t('kyc.front')}
            file={files.front}
            onChange={(file) => setFile('front', file)}
            error={fileErrors.front}
            disabled={isLoading}
          />
        </div>
        {type.back_required === 1 ? (
          <div className="col-12 col-md-6">
            <ImagePicker
              id={`${idBase}-back`}
              label={t('kyc.back')}
              file={files.back}
              onChange={(file) => setFile('back', file)}
              error={fileErrors.back}
              disabled={isLoading}
            />
          </div>
        ) : null}
      </div>
      <div className="mt-4">
        <Button type="submit" disabled={isLoading}>
          {t('kyc.submit')}
        </Button>
      </div>
      <ConfirmSaveModal
        show={confirming}
        subject={t('kyc.subjectDocument', { type: type.document_type })}
        busy={isLoading}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void save()}
      />
    </Form>
  );
}
